/// The expression grammar's translation unit: instantiates the X3 rules and turns the X3
/// attribute tree into the plain expr::Node tree (with byte offsets for every node).
#include "planlint/grammar/expr_grammar_def.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "planlint/expr/syntax.hpp"
#include "planlint/units/quantity.hpp"

namespace planlint::grammar::expr_parser {
BOOST_SPIRIT_INSTANTIATE(expression_type, iterator_type, context_type)
}  // namespace planlint::grammar::expr_parser

namespace planlint::expr {
namespace {

namespace ep = grammar::expr_parser;
namespace ast = grammar::expr_ast;

struct failed {
  SyntaxError error;
};

Op binary_op(const std::string& op) {
  static const std::pair<const char*, Op> table[] = {
      {"+", Op::add}, {"-", Op::sub},  {"*", Op::mul},      {"/", Op::div},   {"^", Op::pow},
      {"==", Op::eq}, {"!=", Op::ne},  {"<", Op::lt},       {"<=", Op::le},   {">", Op::gt},
      {">=", Op::ge}, {"and", Op::and_}, {"or", Op::or_},   {"in", Op::in},   {"not in", Op::not_in},
  };
  for (const auto& [text, value] : table)
    if (op == text) return value;
  return Op::add;
}

/// Everything a parsed tree holds, owned by its root's NodePtr (the aliasing constructor): the
/// nodes, their texts and their child lists. Deques, so that what a node views never moves.
struct ParsedTree {
  std::deque<Node> nodes;
  std::deque<std::string> texts;
  std::deque<std::vector<const Node*>> child_lists;
};

/// Converts the X3 tree into `tree`; throws `failed` for a literal that does not mean anything.
class converter {
 public:
  converter(const char* first, const ep::error_sink& sink, ParsedTree& tree, PathResolver resolve)
      : first_(first), sink_(sink), tree_(tree), resolve_(resolve) {}

  const Node* operator()(const ast::expression& e) const {
    const Node* left = convert(e.first);
    for (const ast::operation& operation : e.rest) {
      Node& node = tree_.nodes.emplace_back();
      node.kind = Node::Kind::binary;
      node.op = binary_op(operation.op);
      const Node* right = convert(operation.right);
      node.children = children({left, right});
      node.begin = left->begin;
      node.end = right->end;
      left = &node;
    }
    return left;
  }

  const Node* convert(const ast::operand& operand) const {
    return boost::apply_visitor([this](const auto& node) { return visit(node); }, operand);
  }

 private:
  template <typename T>
  Node& make(Node::Kind kind, const T& tagged) const {
    Node& node = tree_.nodes.emplace_back();
    node.kind = kind;
    auto range = sink_.position_of(tagged);
    node.begin = static_cast<std::size_t>(range.begin() - first_);
    node.end = static_cast<std::size_t>(range.end() - first_);
    return node;
  }
  std::string_view text(const std::string& text) const { return tree_.texts.emplace_back(text); }
  std::span<const Node* const> children(std::vector<const Node*> list) const {
    return tree_.child_lists.emplace_back(std::move(list));
  }

  const Node* visit(const ast::nil&) const { throw failed{{0, "expected an expression"}}; }
  const Node* visit(const ast::quantity_literal& q) const {
    Node& node = make(Node::Kind::quantity, q);
    units::QuantityResult parsed = units::parse_quantity(q.text);
    if (auto* error = std::get_if<units::QuantityError>(&parsed))
      throw failed{{node.begin + error->column - 1, error->message}};
    node.quantity = std::get<units::Quantity>(parsed);
    return &node;
  }
  const Node* visit(const ast::string_literal& s) const {
    Node& node = make(Node::Kind::string, s);
    node.text = text(s.text);
    return &node;
  }
  const Node* visit(const ast::bool_literal& b) const {
    Node& node = make(Node::Kind::boolean, b);
    node.boolean = b.text == "true";
    return &node;
  }
  const Node* visit(const ast::path& p) const {
    Node& node = make(Node::Kind::path, p);
    node.text = text(p.text);
    if (resolve_) node.ref = resolve_(node.text);
    return &node;
  }
  const Node* visit(const ast::call& c) const {
    Node& node = make(Node::Kind::call, c);
    node.text = text(c.name);
    node.function = find_function(node.text);
    std::vector<const Node*> arguments;
    for (const ast::expression& argument : c.arguments) arguments.push_back((*this)(argument));
    node.children = children(std::move(arguments));
    return &node;
  }
  const Node* visit(const ast::unary& u) const {
    Node& node = make(Node::Kind::unary, u);
    node.op = u.op == "not" ? Op::not_ : Op::neg;
    node.children = children({convert(u.operand_)});
    return &node;
  }
  const Node* visit(const ast::expression& e) const { return (*this)(e); }
  const Node* visit(const ast::conditional& c) const {
    Node& node = make(Node::Kind::conditional, c);
    // Evaluated in order, as the operands appear.
    const Node* condition = (*this)(c.condition);
    const Node* then_branch = (*this)(c.then_branch);
    const Node* else_branch = (*this)(c.else_branch);
    node.children = children({condition, then_branch, else_branch});
    return &node;
  }
  const Node* visit(const ast::list& l) const {
    Node& node = make(Node::Kind::list, l);
    std::vector<const Node*> items;
    for (const ast::expression& item : l.items) items.push_back((*this)(item));
    node.children = children(std::move(items));
    return &node;
  }

  const char* first_;
  const ep::error_sink& sink_;
  ParsedTree& tree_;
  PathResolver resolve_;
};

/// Rejects input that would recurse too deeply before it reaches the recursive parser.
std::optional<SyntaxError> check_bounds(std::string_view text) {
  if (text.size() > max_expression_length)
    return SyntaxError{max_expression_length,
                       "expression longer than " + std::to_string(max_expression_length) +
                           " characters"};
  std::size_t depth = 0, nesting_tokens = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '(' || c == '[') {
      if (++depth > max_expression_depth)
        return SyntaxError{i, "expression nested deeper than " +
                                  std::to_string(max_expression_depth) + " levels"};
    } else if (c == ')' || c == ']') {
      if (depth > 0) --depth;
    }
    // Prefix operators recurse too: '-', '^', 'not', 'if' (a keyword followed by any blank,
    // since the skipper takes tabs and line breaks as well as spaces).
    auto keyword_at = [&](std::string_view word) {
      return text.substr(i, word.size()) == word && i + word.size() < text.size() &&
             std::isspace(static_cast<unsigned char>(text[i + word.size()]));
    };
    if (c == '-' || c == '^' || keyword_at("not") || keyword_at("if"))
      if (++nesting_tokens > 4 * max_expression_depth)
        return SyntaxError{i, "expression has too many nested operators"};
  }
  return std::nullopt;
}

}  // namespace

ParseResult parse_expression(std::string_view text, PathResolver resolve) {
  if (auto error = check_bounds(text)) return *error;
  const char* first = text.data();
  const char* last = first + text.size();
  ep::error_sink sink(first, last);
  grammar::expr_ast::expression tree;
  const char* iterator = first;
  namespace x3 = boost::spirit::x3;
  const auto parser = x3::with<x3::error_handler_tag>(std::ref(sink))[grammar::expression()];
  bool ok = false;
  try {
    ok = x3::phrase_parse(iterator, last, parser, x3::ascii::space, tree);
  } catch (const x3::expectation_failure<const char*>& failure) {
    return SyntaxError{static_cast<std::size_t>(failure.where() - first),
                       "expected " + failure.which()};
  }
  if (sink.failed())
    return SyntaxError{static_cast<std::size_t>(sink.failed()->where - first),
                       sink.failed()->message};
  if (!ok) return SyntaxError{0, "expected an expression"};
  if (iterator != last) {
    std::size_t offset = static_cast<std::size_t>(iterator - first);
    std::string rest(iterator, std::min<const char*>(last, iterator + 12));
    if (auto space = rest.find(' '); space != std::string::npos && space > 0) rest.resize(space);
    return SyntaxError{offset, "unexpected '" + rest + "'"};
  }
  auto parsed = std::make_shared<ParsedTree>();
  try {
    const Node* root = converter(first, sink, *parsed, resolve)(tree);
    return NodePtr(std::move(parsed), root);
  } catch (const failed& error) {
    return error.error;
  }
}

std::size_t find_outside_strings(std::string_view text, std::size_t from, std::string_view stops) {
  // The strings as the grammar reads them, so that a template's scan and its expressions' parse
  // agree on where every string ends.
  const char* const end = text.data() + text.size();
  for (const char* at = text.data() + std::min(from, text.size()); at != end;) {
    const char* next = at;
    if (boost::spirit::x3::parse(next, end, ep::string_literal_def)) {
      at = next;
      continue;
    }
    if (boost::spirit::x3::parse(next, end, ep::string_quote)) return text.size();
    if (stops.find(*at) != std::string_view::npos) return static_cast<std::size_t>(at - text.data());
    ++at;
  }
  return text.size();
}

}  // namespace planlint::expr
