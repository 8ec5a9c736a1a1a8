#include "planlint/diff/git.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "planlint/markdown/markdown.hpp"
#include "planlint/source/source_file.hpp"

extern char** environ;  // NOLINT: POSIX's, for posix_spawnp

namespace planlint {

namespace {

/// A pipe whose ends close with it; both ends close on exec, so a child holds only what
/// posix_spawn's file actions give it.
struct Pipe {
  int read = -1, write = -1;
  Pipe() {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) == 0) {
      read = ends[0];
      write = ends[1];
    }
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  bool ok() const { return read >= 0 && write >= 0; }
  void close_read() {
    if (read >= 0) ::close(read);
    read = -1;
  }
  void close_write() {
    if (write >= 0) ::close(write);
    write = -1;
  }
};

/// Writes what `fd` takes of `data` now, without blocking: the bytes written, 0 when its pipe is
/// full, -1 when git has closed it. A write to a git that has ended raises SIGPIPE: it is blocked
/// around the write and its pending signal taken, so that it does not end planlint.
ssize_t write_some(int fd, std::string_view data) {
  sigset_t pipe_signal, previous;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  ssize_t n = 0;
  do {
    n = ::write(fd, data.data(), data.size());
  } while (n < 0 && errno == EINTR);
  const bool full = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  if (n < 0 && !full) {
    const timespec now{0, 0};
    while (sigtimedwait(&pipe_signal, nullptr, &now) == SIGPIPE) {
    }
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  return full ? 0 : n;
}

/// A git process started from an argument vector, its standard streams piped to planlint,
/// which serves them without blocking on any one of them (serve()).
struct GitChild {
  Pipe in, out, err;
  pid_t pid = -1;
  std::string_view input;                           ///< what is left to write to its standard input
  std::function<void(std::string_view)> out_piece;  ///< takes its standard output as it arrives
  GitOutput result;                                 ///< its standard error; its status once it has ended
  bool ended = false;
};

/// Starts `git ARGS...` as `child`; false, `child` ended with status 127, when it cannot.
/// `out_pipe_bytes`: room for git's output to get ahead of planlint (0: the system's).
bool start_git(const std::vector<std::string>& args, GitChild& child, int out_pipe_bytes = 0) {
  const auto failed = [&child](std::string reason) {
    child.result.status = 127;
    child.result.error = std::move(reason);
    child.ended = true;
    return false;
  };
  if (!child.in.ok() || !child.out.ok() || !child.err.ok())
    return failed(fmt::format("cannot make a pipe for git: {}", std::strerror(errno)));
  std::vector<std::string> command = {"git"};
  command.insert(command.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : command) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child.in.read, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child.out.write, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, child.err.write, STDERR_FILENO);
  const int spawned = posix_spawnp(&child.pid, "git", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return failed(fmt::format("cannot run git: {}", std::strerror(spawned)));
  child.in.close_read();
  child.out.close_write();
  child.err.close_write();
  // planlint's ends only (git's are other open files): one stream that is not ready never
  // holds up the others, nor planlint's work between two serve() calls.
  for (const int fd : {child.in.write, child.out.read, child.err.read})
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
#ifdef F_SETPIPE_SZ
  // Past the system's limit (/proc/sys/fs/pipe-max-size) it fails, and the pipe stays as it was.
  if (out_pipe_bytes > 0) ::fcntl(child.out.read, F_SETPIPE_SZ, out_pipe_bytes);
#else
  (void)out_pipe_bytes;
#endif
  return true;
}

/// Takes the exit status of a git whose output streams have both ended.
void reap(GitChild& child) {
  child.in.close_write();
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  child.result.status =
      WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  child.ended = true;
}

/// Serves the streams of started gits: writes what is left of each one's input as its pipe takes
/// it (then closes it: git reads to its end), and hands over its output and keeps its standard
/// error as they arrive, until each git has ended, or, once `enough()` holds, until no stream is
/// ready: then it returns at once, and git goes on into the pipes' room while planlint works.
void serve(const std::vector<GitChild*>& children, const std::function<bool()>& enough) {
  std::array<char, 65536> buffer;
  std::vector<pollfd> fds;
  std::vector<std::pair<GitChild*, int>> streams;  ///< each pollfd's git, and its stream (0, 1, 2)
  while (true) {
    fds.clear();
    streams.clear();
    for (GitChild* child : children) {
      if (child->input.empty()) child->in.close_write();
      const int ends[3] = {child->in.write, child->out.read, child->err.read};
      for (int stream = 0; stream < 3; ++stream)
        if (ends[stream] >= 0) {
          fds.push_back({ends[stream], static_cast<short>(stream == 0 ? POLLOUT : POLLIN), 0});
          streams.emplace_back(child, stream);
        }
    }
    if (fds.empty()) return;
    const int ready = ::poll(fds.data(), fds.size(), enough() ? 0 : -1);
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return;  // nothing ready (or poll failed)
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      const auto [child, stream] = streams[i];
      if (stream == 0) {
        const ssize_t n = write_some(child->in.write, child->input);
        if (n < 0) child->input = {};  // git has closed it
        else child->input.remove_prefix(static_cast<std::size_t>(n));
        continue;
      }
      Pipe& pipe = stream == 1 ? child->out : child->err;
      const ssize_t n = ::read(pipe.read, buffer.data(), buffer.size());
      if (n > 0) {
        const std::string_view piece(buffer.data(), static_cast<std::size_t>(n));
        if (stream == 1) child->out_piece(piece);
        else child->result.error.append(piece);
        continue;
      }
      if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
      pipe.close_read();  // end of file (or an error): this stream is done
      if (child->out.read < 0 && child->err.read < 0) reap(*child);
    }
  }
}

const auto until_ended = [] { return false; };

/// Runs several git commands that read no input at once: their outputs, in their order.
std::vector<GitOutput> run_git_together(const std::vector<std::vector<std::string>>& commands) {
  std::vector<std::unique_ptr<GitChild>> children;
  std::vector<GitChild*> started;
  for (const std::vector<std::string>& args : commands) {
    GitChild& child = *children.emplace_back(std::make_unique<GitChild>());
    child.out_piece = [&child](std::string_view piece) { child.result.out.append(piece); };
    if (start_git(args, child)) started.push_back(&child);
  }
  serve(started, until_ended);
  std::vector<GitOutput> outputs;
  for (const auto& child : children) outputs.push_back(std::move(child->result));
  return outputs;
}

}  // namespace

GitOutput run_git(const std::vector<std::string>& args, const std::string& input) {
  std::string out;
  GitOutput result = run_git(args, input, [&out](std::string_view piece) { out.append(piece); });
  result.out = std::move(out);
  return result;
}

GitOutput run_git(const std::vector<std::string>& args, const std::string& input,
                  const std::function<void(std::string_view)>& out_piece) {
  GitChild child;
  child.input = input;
  child.out_piece = out_piece;
  if (start_git(args, child)) serve({&child}, until_ended);
  return std::move(child.result);
}

bool is_candidate_path(const std::string& path) {
  if (!is_toml_path(path) && !is_markdown_path(path)) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = path.find('/', start);
    if (slash == std::string::npos) return true;  // the file's own name may start with a dot
    const std::string_view folder = std::string_view(path).substr(start, slash - start);
    if ((folder.size() > 1 && folder[0] == '.' && folder != "..") || folder == "node_modules") return false;
    start = slash + 1;
  }
}

namespace {

/// An entry of `git ls-tree -r -z -l`: "<mode> SP <type> SP <object> SP+ <size> TAB <path>".
struct TreeEntry {
  std::string mode, type, object, path;
  std::size_t size = 0;
};

std::vector<TreeEntry> parse_tree(std::string_view listing) {
  std::vector<TreeEntry> entries;
  std::size_t at = 0;
  while (at < listing.size()) {
    std::size_t end = listing.find('\0', at);
    if (end == std::string_view::npos) end = listing.size();
    const std::string_view record = listing.substr(at, end - at);
    at = end + 1;
    const std::size_t tab = record.find('\t');
    if (tab == std::string_view::npos) continue;
    TreeEntry entry;
    entry.path = std::string(record.substr(tab + 1));
    std::string_view fields = record.substr(0, tab);
    std::array<std::string_view, 4> parts;
    for (std::string_view& part : parts) {
      while (!fields.empty() && fields.front() == ' ') fields.remove_prefix(1);
      const std::size_t space = fields.find(' ');
      part = fields.substr(0, space);
      fields.remove_prefix(space == std::string_view::npos ? fields.size() : space);
    }
    entry.mode = std::string(parts[0]);
    entry.type = std::string(parts[1]);
    entry.object = std::string(parts[2]);
    std::from_chars(parts[3].data(), parts[3].data() + parts[3].size(), entry.size);
    entries.push_back(std::move(entry));
  }
  return entries;
}

/// git's message without its trailing line break: what planlint quotes as the reason.
std::string git_reason(const GitOutput& output) {
  std::string reason = output.error;
  while (!reason.empty() && (reason.back() == '\n' || reason.back() == '\r')) reason.pop_back();
  if (reason.empty()) reason = fmt::format("git exited with status {}", output.status);
  return reason;
}

/// The blobs of a tree's listing that a folder search would lint.
Result<std::vector<GitBlob>> wanted_blobs(std::string_view listing, std::size_t max_file_bytes) {
  std::vector<GitBlob> wanted;
  for (TreeEntry& entry : parse_tree(listing)) {
    // Regular files only (100644, 100755): not a link (120000) nor a submodule (160000).
    if (entry.type != "blob" || !entry.mode.starts_with("100") || !is_candidate_path(entry.path)) continue;
    if (entry.size > max_file_bytes)
      return Error(fmt::format("file of {} bytes is over the {} bytes size limit (raise it with --max-file-size)",
                               entry.size, max_file_bytes),
                   Location{entry.path, {}});
    wanted.push_back(GitBlob{std::move(entry.path), std::move(entry.object), entry.size});
  }
  return wanted;
}

}  // namespace

std::vector<Result<std::vector<GitBlob>>> list_git_trees(const std::vector<GitTree>& trees,
                                                         std::size_t max_file_bytes) {
  std::vector<std::vector<std::string>> commands;
  for (const GitTree& tree : trees) {
    // --end-of-options: a revision is never read as an option, whatever it starts with.
    std::vector<std::string> args = {"ls-tree", "-r", "-z", "-l", "--full-name", "--end-of-options", tree.revision, "--"};
    if (tree.paths.empty()) args.emplace_back(".");
    args.insert(args.end(), tree.paths.begin(), tree.paths.end());
    commands.push_back(std::move(args));
  }
  std::vector<Result<std::vector<GitBlob>>> listed;
  for (const GitOutput& listing : run_git_together(commands))
    listed.push_back(listing.status != 0 ? Result<std::vector<GitBlob>>(Error(git_reason(listing)))
                                         : wanted_blobs(listing.out, max_file_bytes));
  return listed;
}

namespace {

/// Reads `git cat-file --batch`'s answer as it arrives: "<object> blob <size>\n<text>\n" for
/// each blob asked for, each text read straight into its own string of `texts`.
class BlobStream {
 public:
  BlobStream(const std::vector<GitBlob>& blobs, std::vector<std::string>& texts) : blobs_(blobs), texts_(texts) {}

  void read(std::string_view piece) {
    while (!piece.empty() && !error_) {
      if (in_text_) {
        std::string& text = texts_[complete_];
        const std::size_t take = std::min(piece.size(), size_ - text.size());
        text.append(piece.substr(0, take));
        piece.remove_prefix(take);
        if (text.size() == size_) in_text_ = false, after_text_ = true, ++complete_;
      } else if (after_text_) {  // the line break after a text
        piece.remove_prefix(1);
        after_text_ = false;
      } else {
        const std::size_t line_end = piece.find('\n');
        header_.append(piece.substr(0, line_end));
        if (line_end == std::string_view::npos) return;
        piece.remove_prefix(line_end + 1);
        start_text();
      }
    }
  }

  /// How many texts have arrived whole: texts_[0, complete()) are git's no longer.
  std::size_t complete() const { return complete_; }

  /// The first blob git gave no text for, once it has ended.
  std::optional<Error> error() const {
    if (!error_ && complete_ == blobs_.size()) return std::nullopt;
    const GitBlob& blob = blobs_[std::min(error_.value_or(complete_), blobs_.size() - 1)];
    return Error(fmt::format("git cat-file gave no blob for '{}' ({})", blob.path, blob.object));
  }

 private:
  void start_text() {
    const std::size_t at = complete_;
    const std::size_t last_space = header_.rfind(' ');
    std::size_t size = 0;
    if (at >= blobs_.size() || !header_.starts_with(blobs_[at].object) || last_space == std::string::npos ||
        std::from_chars(header_.data() + last_space + 1, header_.data() + header_.size(), size).ec != std::errc() ||
        size > blobs_[at].size) {
      error_ = at;
      return;
    }
    header_.clear();
    size_ = size;
    texts_[at].reserve(size);
    in_text_ = size > 0;
    after_text_ = size == 0;
    if (size == 0) ++complete_;
  }

  const std::vector<GitBlob>& blobs_;
  std::vector<std::string>& texts_;
  std::size_t complete_ = 0;
  std::string header_;
  std::size_t size_ = 0;  ///< of the text being read
  bool in_text_ = false, after_text_ = false;
  std::optional<std::size_t> error_;  ///< the blob git gave none for
};

}  // namespace

/// The reader's git and what it has read: texts[i] is the stream's until i < stream.complete().
struct BlobReader::State {
  std::vector<GitBlob> blobs;
  std::vector<std::string> texts;
  std::string request;
  BlobStream stream{blobs, texts};
  GitChild child;

  /// Serves git until `enough()`, or to its end.
  void serve_until(const std::function<bool()>& enough) {
    if (!child.ended) serve({&child}, enough);
  }
};

BlobReader::BlobReader(std::vector<GitBlob> blobs) : state_(std::make_unique<State>()) {
  State& state = *state_;
  state.blobs = std::move(blobs);
  state.texts.resize(state.blobs.size());
  state.child.ended = state.blobs.empty();
  if (state.blobs.empty()) return;
  // One `git cat-file --batch` for every blob: "<object>\n" in; --buffer: git writes its answers
  // in full buffers, not a flush for each.
  for (const GitBlob& blob : state.blobs) state.request += blob.object + "\n";
  state.child.input = state.request;
  state.child.out_piece = [&state](std::string_view piece) { state.stream.read(piece); };
  // A megabyte of room: git reads some hundred plans ahead while planlint lints a batch.
  constexpr int ahead_bytes = 1 << 20;
  start_git({"cat-file", "--batch", "--buffer"}, state.child, ahead_bytes);
}

BlobReader::~BlobReader() { state_->serve_until(until_ended); }

std::optional<std::string> BlobReader::take(std::size_t i) {
  State& state = *state_;
  state.serve_until([&state, i] { return i < state.stream.complete(); });
  if (i >= state.stream.complete()) return std::nullopt;
  return std::move(state.texts[i]);
}

Result<void> BlobReader::finish() {
  State& state = *state_;
  state.serve_until(until_ended);
  if (state.child.result.status != 0) return Error(git_reason(state.child.result));
  if (state.blobs.empty()) return {};
  if (std::optional<Error> missing = state.stream.error()) return *std::move(missing);
  return {};
}

std::vector<std::pair<std::string, std::string>> git_renames(const std::string& base, const std::string& head,
                                                             const std::vector<std::string>& paths) {
  std::vector<std::string> args = {"diff", "--no-ext-diff", "--find-renames", "-z", "--name-status", "--end-of-options",
                                   base};
  if (!head.empty()) args.push_back(head);
  args.emplace_back("--");
  if (paths.empty()) args.emplace_back(".");
  args.insert(args.end(), paths.begin(), paths.end());
  const GitOutput output = run_git(args);
  std::vector<std::pair<std::string, std::string>> renames;
  if (output.status != 0) return renames;
  // Records: "<status>\0<path>\0", a rename or copy "R<score>\0<old>\0<new>\0".
  std::vector<std::string_view> fields;
  std::string_view rest = output.out;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\0');
    fields.push_back(rest.substr(0, end));
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
  }
  for (std::size_t i = 0; i < fields.size();) {
    const std::string_view status = fields[i];
    if (status.starts_with('R') && i + 2 < fields.size()) {
      renames.emplace_back(std::string(fields[i + 1]), std::string(fields[i + 2]));
      i += 3;
    } else if (status.starts_with('C')) {
      i += 3;
    } else {
      i += 2;
    }
  }
  return renames;
}

}  // namespace planlint
