#include "planlint/lint/glob.hpp"

#include <algorithm>
#include <optional>

namespace planlint {

namespace {

using Members = std::bitset<256>;

Members range(unsigned first, unsigned last) {
  Members members;
  for (unsigned c = first; c <= last; ++c) members.set(c);
  return members;
}

/// A `[:name:]` class as git reads it: ASCII only, from git's locale-free ctype (so `space` is
/// tab, line feed, carriage return and space, not vertical tab or form feed); nullopt for a
/// name git does not know.
std::optional<Members> class_members(std::string_view name) {
  const Members upper = range('A', 'Z'), lower = range('a', 'z'), digit = range('0', '9');
  if (name == "alnum") return upper | lower | digit;
  if (name == "alpha") return upper | lower;
  if (name == "blank") return Members().set(' ').set('\t');
  if (name == "cntrl") return range(0, 31).set(127);
  if (name == "digit") return digit;
  if (name == "graph") return range(33, 126);
  if (name == "lower") return lower;
  if (name == "print") return range(32, 126);
  if (name == "punct") return range(33, 126) & ~(upper | lower | digit);
  if (name == "space") return Members().set(' ').set('\t').set('\n').set('\r');
  if (name == "upper") return upper;
  if (name == "xdigit") return digit | range('a', 'f') | range('A', 'F');
  return std::nullopt;
}

/// A bracket expression from its `[`, read as git's wildmatch.c reads it: a `]` right after
/// `[`, `[!` or `[^` is a member; `-` between two members is a range (not after a range or a
/// class); `\` escapes; `[:` without a closing `:]` is a `[`. `end` is past its `]`; nullopt
/// when git gives up on it (no `]`, an unknown class, a `\` at the end).
struct Bracket {
  Members members;  ///< what it matches, `/` never among them
  std::size_t end = 0;
};
std::optional<Bracket> read_bracket(std::string_view p, std::size_t open) {
  auto at = [&](std::size_t k) -> unsigned char { return k < p.size() ? static_cast<unsigned char>(p[k]) : 0; };
  std::size_t k = open + 1;
  unsigned char pc = at(k);
  if (pc == '^') pc = '!';
  const bool negated = pc == '!';
  if (negated) pc = at(++k);
  Members in;
  unsigned char previous = 0;
  do {
    if (pc == 0) return std::nullopt;
    if (pc == '\\') {
      pc = at(++k);
      if (pc == 0) return std::nullopt;
      in.set(pc);
    } else if (pc == '-' && previous != 0 && at(k + 1) != 0 && at(k + 1) != ']') {
      pc = at(++k);
      if (pc == '\\') {
        pc = at(++k);
        if (pc == 0) return std::nullopt;
      }
      if (previous <= pc) in |= range(previous, pc);
      pc = 0;  // a range does not start the next one
    } else if (pc == '[' && at(k + 1) == ':') {
      const std::size_t name = k + 2;
      for (k = name; (pc = at(k)) != 0 && pc != ']'; ++k) {}
      if (pc == 0) return std::nullopt;
      if (k == name || at(k - 1) != ':') {
        k = name - 2;  // no `:]`: a `[` like any other member
        pc = '[';
        in.set(pc);
      } else {
        const std::optional<Members> members = class_members(p.substr(name, k - 1 - name));
        if (!members) return std::nullopt;
        in |= *members;
        pc = 0;
      }
    } else {
      in.set(pc);
    }
    previous = pc;
  } while ((pc = at(++k)) != ']');
  Bracket bracket{negated ? ~in : in, k + 1};
  bracket.members.reset(0).reset('/');
  return bracket;
}

/// The live pattern positions of one match, kept between matches so that a match allocates
/// nothing once they have grown to the longest glob. `stamp[i] == generation`: position i is
/// in the set being built.
struct Scratch {
  std::vector<std::uint32_t> stamp;
  std::vector<std::uint32_t> current, next;
  std::uint32_t generation = 0;

  void start_generation(std::size_t positions) {
    if (stamp.size() < positions) stamp.resize(positions, 0);
    if (++generation == 0) {
      std::fill(stamp.begin(), stamp.end(), 0);
      generation = 1;
    }
  }
};

}  // namespace

bool wildmatch(std::string_view pattern, std::string_view path) {
  GlobSet glob;
  return glob.matches(glob.add(pattern), path);
}

std::size_t GlobSet::add(std::string_view pattern) {
  pattern = pattern.substr(0, pattern.find('\0'));
  Glob glob;
  const std::size_t atoms_before = atoms_.size(), sets_before = sets_.size();
  std::size_t min_length = 0;
  // Atoms are indexed by 32 bits: a set that would pass them holds 16 GiB of atoms already.
  bool never = atoms_.size() + pattern.size() > UINT32_MAX;
  glob.first = static_cast<std::uint32_t>(never ? 0 : atoms_.size());
  auto push = [&](Kind kind, std::uint32_t payload = 0) { atoms_.push_back(atom(kind, payload)); };
  auto after_folders = [&] { return atoms_.size() > glob.first && kind_of(atoms_.back()) == Kind::folders_body; };
  for (std::size_t i = 0; i < pattern.size() && !never;) {
    const char c = pattern[i];
    if (c == '\\') {
      if (i + 1 == pattern.size()) {
        never = true;  // git compares the text with the pattern's end: no match
      } else {
        push(Kind::byte, static_cast<unsigned char>(pattern[i + 1]));
        ++min_length;
      }
      i += 2;
    } else if (c == '?') {
      push(Kind::any_but_slash);
      ++min_length;
      ++i;
    } else if (c == '[') {
      const std::optional<Bracket> bracket = read_bracket(pattern, i);
      if (!bracket || bracket->members.none() || sets_.size() >= max_payload) {
        never = true;
        break;
      }
      if (bracket->members.count() == 1) {  // `[.]`: one character, without a set
        std::uint32_t member = 0;
        while (!bracket->members.test(member)) ++member;
        push(Kind::byte, member);
      } else {
        sets_.push_back(bracket->members);
        push(Kind::set, static_cast<std::uint32_t>(sets_.size() - 1));
      }
      ++min_length;
      i = bracket->end;
    } else if (c == '*') {
      std::size_t end = i;
      while (end < pattern.size() && pattern[end] == '*') ++end;
      const bool slash_after = end < pattern.size() && pattern[end] == '/';
      const bool escaped_slash_after = pattern.substr(end, 2) == "\\/";
      // git: `**` matches across folders only as a whole name (after a `/` or at the start,
      // before a `/` or at the end); elsewhere it is `*`.
      if (end - i >= 2 && (i == 0 || pattern[i - 1] == '/') &&
          (end == pattern.size() || slash_after || escaped_slash_after)) {
        if (slash_after) {
          // `**/**/` reads as `**/`: zero or more folders twice are zero or more folders.
          if (!after_folders()) {
            push(Kind::folders_entry);
            push(Kind::folders_body);
          }
          i = end + 1;
        } else {
          if (after_folders()) atoms_.resize(atoms_.size() - 2);  // `**/**` is `**`
          push(Kind::any);
          i = end;
        }
      } else {
        push(Kind::star);
        i = end;
      }
    } else {
      push(Kind::byte, static_cast<unsigned char>(c));
      ++min_length;
      ++i;
    }
  }
  const std::size_t count = atoms_.size() - atoms_before;
  if (never) {
    atoms_.resize(atoms_before);
    sets_.resize(sets_before);
    glob.min_length = never_matches;
  } else {
    glob.count = static_cast<std::uint32_t>(count);
    glob.min_length = static_cast<std::uint32_t>(min_length);
  }
  globs_.push_back(glob);
  return globs_.size() - 1;
}

bool GlobSet::matches(std::size_t index, std::string_view path) const {
  std::size_t steps = 0;
  return matches(index, path, steps);
}

bool GlobSet::matches(std::size_t index, std::string_view path, std::size_t& steps) const {
  const Glob& glob = globs_.at(index);
  path = path.substr(0, path.find('\0'));
  if (glob.min_length == never_matches || path.size() < glob.min_length) return false;
  if (glob.count == glob.min_length) {
    // No star: one character per atom ("build", "plan-?.toml"), compared in one pass.
    if (path.size() != glob.count) return false;
    const Atom* atoms = atoms_.data() + glob.first;
    for (std::size_t i = 0; i < path.size(); ++i) {
      ++steps;
      if (!takes(atoms[i], static_cast<unsigned char>(path[i]))) return false;
    }
    return true;
  }
  return run(glob, path, steps);
}

bool GlobSet::takes(Atom atom, unsigned char c) const {
  switch (kind_of(atom)) {
    case Kind::byte: return c == payload_of(atom);
    case Kind::any_but_slash: return c != '/';
    case Kind::set: return sets_[payload_of(atom)].test(c);
    default: return false;
  }
}

bool GlobSet::run(const Glob& glob, std::string_view path, std::size_t& steps) const {
  const Atom* atoms = atoms_.data() + glob.first;
  const std::uint32_t accept = glob.count;  // the position past the last atom
  thread_local Scratch scratch;
  std::vector<std::uint32_t>& stamp = scratch.stamp;
  // Adds `position` and the positions it reaches without a character: past a star (it
  // matches nothing), and into or past a `**/`. Zero-width atoms follow one another at most
  // three in a row (`**/*`), as add() merges the rest.
  auto add = [&](std::uint32_t position, std::vector<std::uint32_t>& set) {
    while (stamp[position] != scratch.generation) {
      stamp[position] = scratch.generation;
      set.push_back(position);
      if (position == accept) return;
      const Kind kind = kind_of(atoms[position]);
      if (kind == Kind::folders_entry) {
        if (stamp[position + 1] != scratch.generation) {
          stamp[position + 1] = scratch.generation;
          set.push_back(position + 1);
        }
        position += 2;
      } else if (kind == Kind::star || kind == Kind::any) {
        position += 1;
      } else {
        return;
      }
    }
  };
  std::vector<std::uint32_t>& current = scratch.current;
  std::vector<std::uint32_t>& next = scratch.next;
  current.clear();
  scratch.start_generation(accept + 1);
  add(0, current);
  for (const char text_char : path) {
    const auto c = static_cast<unsigned char>(text_char);
    next.clear();
    scratch.start_generation(accept + 1);
    for (const std::uint32_t position : current) {
      ++steps;
      if (position == accept) continue;
      const Atom atom = atoms[position];
      switch (kind_of(atom)) {
        case Kind::byte:
        case Kind::any_but_slash:
        case Kind::set:
          if (takes(atom, c)) add(position + 1, next);
          break;
        case Kind::star:
          if (c != '/') add(position, next);
          break;
        case Kind::any:
          add(position, next);
          break;
        case Kind::folders_entry:
          break;
        case Kind::folders_body:
          add(position, next);
          if (c == '/') add(position + 1, next);
          break;
      }
    }
    current.swap(next);
    if (current.empty()) return false;
  }
  return stamp[accept] == scratch.generation;
}

}  // namespace planlint
