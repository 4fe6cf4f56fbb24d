#include "qsel/core/linear_regex.h"

#include <algorithm>

namespace qsel {
namespace {

constexpr char32_t kBad = 0xFFFD;
constexpr int kMaxDepth = 64;      // group nesting
constexpr unsigned kMaxCount = 1000;  // the largest n or m in {n,m}

// One code point from UTF-8 at `i` (advanced); an invalid byte reads as U+FFFD.
char32_t next_code_point(std::string_view s, std::size_t& i) {
  auto b = static_cast<unsigned char>(s[i++]);
  if (b < 0x80) return b;
  int extra = b >= 0xF0 && b < 0xF5 ? 3 : b >= 0xE0 ? 2 : b >= 0xC2 && b < 0xE0 ? 1 : -1;
  if (extra < 0 || i + static_cast<std::size_t>(extra) > s.size()) return kBad;
  char32_t c = b & (0x3F >> extra);
  for (int k = 0; k < extra; ++k) {
    auto t = static_cast<unsigned char>(s[i]);
    if ((t & 0xC0) != 0x80) return kBad;
    c = (c << 6) | (t & 0x3F);
    ++i;
  }
  return c;
}

struct Node {
  enum Type { Empty, Cls, Begin, End, Cat, Alt, Rep } type = Empty;
  std::uint32_t cls = 0;
  std::vector<std::size_t> kids;
  unsigned min = 0, max = 0;  // Rep; max == kInfinite for no bound
};
constexpr unsigned kInfinite = ~0u;

const std::vector<LinearRegex::Range> kDigit = {{'0', '9'}};
const std::vector<LinearRegex::Range> kWord = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
const std::vector<LinearRegex::Range> kSpace = {{'\t', '\r'}, {' ', ' '},       {0xA0, 0xA0},     {0x1680, 0x1680},
                                                {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F},
                                                {0x3000, 0x3000}, {0xFEFF, 0xFEFF}};
const std::vector<LinearRegex::Range> kLineEnd = {{'\n', '\n'}, {'\r', '\r'}, {0x2028, 0x2029}};

}  // namespace

bool LinearRegex::CharClass::slow_contains(char32_t c) const {
  bool in = std::any_of(ranges.begin(), ranges.end(), [c](const Range& r) { return c >= r.lo && c <= r.hi; });
  return in != negated;
}

void LinearRegex::CharClass::finish() {
  for (char32_t c = 0; c < 128; ++c)
    if (slow_contains(c)) ascii[c >> 6] |= std::uint64_t{1} << (c & 63);
}

// Pattern text -> syntax tree -> program. Every error names what was not understood.
class RegexCompiler {
 public:
  explicit RegexCompiler(std::string_view p) : p_(p) {}

  std::optional<LinearRegex> run(std::string* why) {
    std::size_t root = alternation(0);
    if (error_.empty() && i_ < p_.size()) error_ = p_[i_] == ')' ? "unmatched ')'" : "unexpected character";
    if (error_.empty()) emit(root);
    if (error_.empty()) push({LinearRegex::Inst::Match});
    if (!error_.empty()) {
      if (why) *why = error_;
      return std::nullopt;
    }
    return std::move(out_);
  }

 private:
  std::string_view p_;
  std::size_t i_ = 0;
  std::string error_;
  std::vector<Node> nodes_;
  LinearRegex out_;

  std::size_t add(Node n) {
    nodes_.push_back(std::move(n));
    return nodes_.size() - 1;
  }
  std::size_t add_type(Node::Type t) {
    Node n;
    n.type = t;
    return add(std::move(n));
  }
  std::size_t add_class(std::vector<LinearRegex::Range> ranges, bool negated) {
    out_.classes_.push_back({std::move(ranges), negated});
    out_.classes_.back().finish();
    Node n;
    n.type = Node::Cls;
    n.cls = static_cast<std::uint32_t>(out_.classes_.size() - 1);
    return add(std::move(n));
  }
  bool fail(const char* why) {
    if (error_.empty()) error_ = why;
    return false;
  }
  bool at(char c) const { return i_ < p_.size() && p_[i_] == c; }

  std::size_t alternation(int depth) {
    if (depth > kMaxDepth) return fail("groups nested too deep"), add({});
    Node alt;
    alt.type = Node::Alt;
    alt.kids.push_back(concatenation(depth));
    while (error_.empty() && at('|')) {
      ++i_;
      alt.kids.push_back(concatenation(depth));
    }
    return alt.kids.size() == 1 ? alt.kids[0] : add(std::move(alt));
  }

  std::size_t concatenation(int depth) {
    Node cat;
    cat.type = Node::Cat;
    while (error_.empty() && i_ < p_.size() && !at('|') && !at(')')) cat.kids.push_back(repetition(depth));
    return add(std::move(cat));
  }

  bool number(unsigned& out) {
    if (i_ >= p_.size() || p_[i_] < '0' || p_[i_] > '9') return false;
    out = 0;
    while (i_ < p_.size() && p_[i_] >= '0' && p_[i_] <= '9') {
      out = out * 10 + static_cast<unsigned>(p_[i_++] - '0');
      if (out > kMaxCount) return fail("a repetition count above 1000");
    }
    return true;
  }

  std::size_t repetition(int depth) {
    std::size_t atom_start = i_;
    std::size_t a = atom(depth);
    if (!error_.empty()) return a;
    unsigned lo = 0, hi = 0;
    if (at('*')) lo = 0, hi = kInfinite, ++i_;
    else if (at('+')) lo = 1, hi = kInfinite, ++i_;
    else if (at('?')) lo = 0, hi = 1, ++i_;
    else if (at('{')) {
      ++i_;
      if (!number(lo)) return fail("'{' that is not a repetition count"), a;
      hi = lo;
      if (at(',')) {
        ++i_;
        hi = kInfinite;
        if (!at('}') && !number(hi)) return fail("'{' that is not a repetition count"), a;
      }
      if (!at('}')) return fail("'{' that is not a repetition count"), a;
      ++i_;
      if (hi < lo) return fail("a repetition {n,m} with m below n"), a;
    } else {
      return a;
    }
    if (at('?')) ++i_;  // lazy: the same strings match
    if (nodes_[a].type == Node::Begin || nodes_[a].type == Node::End || atom_start == i_)
      return fail("a quantifier with nothing to repeat"), a;
    if (at('*') || at('+') || at('?') || at('{')) return fail("two quantifiers in a row"), a;
    Node r;
    r.type = Node::Rep;
    r.kids = {a};
    r.min = lo;
    r.max = hi;
    return add(std::move(r));
  }

  std::size_t atom(int depth) {
    char c = p_[i_];
    switch (c) {
      case '^': ++i_; return add_type(Node::Begin);
      case '$': ++i_; return add_type(Node::End);
      case '.': ++i_; return add_class(kLineEnd, true);
      case '[': ++i_; return bracket();
      case '(': {
        ++i_;
        if (at('?')) {
          if (i_ + 1 < p_.size() && p_[i_ + 1] == ':') i_ += 2;
          else return fail("look-around or named groups are not supported"), add({});
        }
        std::size_t inner = alternation(depth + 1);
        if (!error_.empty()) return inner;
        if (!at(')')) return fail("unclosed '('"), inner;
        ++i_;
        return inner;
      }
      case ')': return fail("unmatched ')'"), add({});
      case '*': case '+': case '?': case '{': return fail("a quantifier with nothing to repeat"), add({});
      case '}': case ']': return fail("an unescaped '}' or ']'"), add({});
      case '\\': {
        ++i_;
        std::vector<LinearRegex::Range> ranges;
        bool negated = false, is_class = false;
        if (!escape(ranges, negated, is_class, false)) return add({});
        return add_class(std::move(ranges), negated);
      }
      default: {
        char32_t cp = next_code_point(p_, i_);
        return add_class({{cp, cp}}, false);
      }
    }
  }

  // After a backslash: a class (\d, \w, \s and their negations) or one character.
  bool escape(std::vector<LinearRegex::Range>& ranges, bool& negated, bool& is_class, bool in_class) {
    if (i_ >= p_.size()) return fail("a pattern ending in '\\'");
    char c = p_[i_++];
    auto one = [&](char32_t cp) { ranges = {{cp, cp}}; return true; };
    auto set = [&](const std::vector<LinearRegex::Range>& r, bool neg) {
      ranges = r;
      negated = neg;
      is_class = true;
      return true;
    };
    switch (c) {
      case 'd': return set(kDigit, false);
      case 'D': return set(kDigit, true);
      case 'w': return set(kWord, false);
      case 'W': return set(kWord, true);
      case 's': return set(kSpace, false);
      case 'S': return set(kSpace, true);
      case 't': return one('\t');
      case 'n': return one('\n');
      case 'r': return one('\r');
      case 'f': return one('\f');
      case 'v': return one('\v');
      case '0': return i_ < p_.size() && p_[i_] >= '0' && p_[i_] <= '9' ? fail("octal escapes are not supported") : one(0);
      case 'x': case 'u': {
        std::size_t digits = c == 'x' ? 2 : 4;
        if (i_ + digits > p_.size()) return fail("a short \\x or \\u escape");
        char32_t cp = 0;
        for (std::size_t k = 0; k < digits; ++k) {
          char h = p_[i_++];
          int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
          if (v < 0) return fail("a \\x or \\u escape that is not hexadecimal");
          cp = cp * 16 + static_cast<char32_t>(v);
        }
        return one(cp);
      }
      default: break;
    }
    if (c == 'b' || c == 'B') return fail(in_class ? "\\b in a class is not supported" : "word boundaries are not supported");
    if (c >= '1' && c <= '9') return fail("back-references are not supported");
    if (std::string_view("^$\\.*+?()[]{}|/-").find(c) != std::string_view::npos) return one(static_cast<unsigned char>(c));
    return fail("an escape that is not supported");
  }

  std::size_t bracket() {
    std::vector<LinearRegex::Range> ranges;
    bool negated = at('^');
    if (negated) ++i_;
    bool first = true;
    while (error_.empty() && !(at(']') && !first)) {
      if (i_ >= p_.size()) return fail("unclosed '['"), add({});
      first = false;
      if (at(']')) break;  // "[]" matches nothing
      char32_t lo = 0;
      if (!class_atom(ranges, lo)) continue;  // a \d-like class was added
      if (at('-') && i_ + 1 < p_.size() && p_[i_ + 1] != ']') {
        ++i_;
        char32_t hi = 0;
        if (!class_atom(ranges, hi)) return fail("a range ending in a class escape"), add({});
        if (hi < lo) return fail("a range out of order"), add({});
        ranges.push_back({lo, hi});
      } else {
        ranges.push_back({lo, lo});
      }
    }
    if (!error_.empty()) return add({});
    ++i_;  // ']'
    return add_class(std::move(ranges), negated);
  }

  // One character of a class in `cp` (true), or a class escape added to `ranges` (false).
  bool class_atom(std::vector<LinearRegex::Range>& ranges, char32_t& cp) {
    if (!at('\\')) {
      cp = next_code_point(p_, i_);
      return true;
    }
    ++i_;
    std::vector<LinearRegex::Range> r;
    bool negated = false, is_class = false;
    if (!escape(r, negated, is_class, true)) return false;
    if (negated) return fail("\\D, \\W or \\S inside a class is not supported");
    if (!is_class) {
      cp = r[0].lo;
      return true;
    }
    if (at('-') && i_ + 1 < p_.size() && p_[i_ + 1] != ']') return fail("a range starting with a class escape");
    ranges.insert(ranges.end(), r.begin(), r.end());
    return false;
  }

  std::size_t push(LinearRegex::Inst in) {
    if (out_.program_.size() >= LinearRegex::kMaxProgram) {
      fail("a pattern too large to compile");
      return 0;
    }
    out_.program_.push_back(in);
    return out_.program_.size() - 1;
  }
  std::uint32_t pc() const { return static_cast<std::uint32_t>(out_.program_.size()); }

  void emit(std::size_t id) {
    if (!error_.empty()) return;
    const Node& n = nodes_[id];
    using I = LinearRegex::Inst;
    switch (n.type) {
      case Node::Empty: return;
      case Node::Cls: push({I::Class, n.cls}); return;
      case Node::Begin: push({I::Begin}); return;
      case Node::End: push({I::End}); return;
      case Node::Cat:
        for (std::size_t k : n.kids) emit(k);
        return;
      case Node::Alt: {
        std::vector<std::size_t> jumps;
        for (std::size_t k = 0; k + 1 < n.kids.size() && error_.empty(); ++k) {
          std::size_t split = push({I::Split});
          out_.program_[split].x = pc();
          emit(n.kids[k]);
          jumps.push_back(push({I::Jump}));
          out_.program_[split].y = pc();
        }
        emit(n.kids.back());
        if (error_.empty())
          for (std::size_t j : jumps) out_.program_[j].x = pc();
        return;
      }
      case Node::Rep: {
        std::size_t kid = n.kids[0];
        unsigned min = n.min, max = n.max;
        for (unsigned k = 0; k < min && error_.empty(); ++k) emit(kid);
        if (max == kInfinite) {
          std::uint32_t loop = pc();
          std::size_t split = push({I::Split});
          if (!error_.empty()) return;
          out_.program_[split].x = pc();
          emit(kid);
          std::size_t back = push({I::Jump});
          if (!error_.empty()) return;
          out_.program_[back].x = loop;
          out_.program_[split].y = pc();
          return;
        }
        std::vector<std::size_t> splits;
        for (unsigned k = min; k < max && error_.empty(); ++k) {
          std::size_t split = push({I::Split});
          if (!error_.empty()) return;
          out_.program_[split].x = pc();
          splits.push_back(split);
          emit(kid);
        }
        if (error_.empty())
          for (std::size_t s : splits) out_.program_[s].y = pc();
        return;
      }
    }
  }
};

std::optional<LinearRegex> LinearRegex::compile(std::string_view pattern, std::string* why) {
  return RegexCompiler(pattern).run(why);
}

namespace {

// The live states of the Pike VM: a sparse set over program counters.
struct StateSet {
  std::vector<std::uint32_t> dense, sparse;
  std::size_t size = 0;
  void reset(std::size_t n) {
    if (dense.size() < n) dense.resize(n), sparse.resize(n);
    size = 0;
  }
  bool has(std::uint32_t pc) const { return sparse[pc] < size && dense[sparse[pc]] == pc; }
  void insert(std::uint32_t pc) {
    sparse[pc] = static_cast<std::uint32_t>(size);
    dense[size++] = pc;
  }
};

}  // namespace

bool LinearRegex::search(std::string_view text) const {
  // Scratch space per thread: a search allocates nothing once warm.
  thread_local StateSet cur, next;
  thread_local std::vector<std::uint32_t> stack;
  cur.reset(program_.size());
  next.reset(program_.size());
  stack.clear();
  bool matched = false;
  // Adds `pc` and every state reachable from it without reading a character.
  auto add = [&](StateSet& set, std::uint32_t start, bool at_begin, bool at_end) {
    stack.push_back(start);
    while (!stack.empty()) {
      std::uint32_t pc = stack.back();
      stack.pop_back();
      if (set.has(pc)) continue;
      set.insert(pc);
      const Inst& in = program_[pc];
      switch (in.op) {
        case Inst::Class: break;
        case Inst::Jump: stack.push_back(in.x); break;
        case Inst::Split: stack.push_back(in.y); stack.push_back(in.x); break;
        case Inst::Begin: if (at_begin) stack.push_back(pc + 1); break;
        case Inst::End: if (at_end) stack.push_back(pc + 1); break;
        case Inst::Match: matched = true; break;
      }
    }
  };
  std::size_t i = 0;
  add(cur, 0, true, text.empty());
  while (!matched && i < text.size()) {
    char32_t c = next_code_point(text, i);
    bool at_end = i == text.size();
    next.size = 0;
    for (std::size_t k = 0; k < cur.size && !matched; ++k) {
      const Inst& in = program_[cur.dense[k]];
      if (in.op == Inst::Class && classes_[in.x].contains(c)) add(next, cur.dense[k] + 1, false, at_end);
    }
    add(next, 0, false, at_end);  // a match may start at every position
    std::swap(cur, next);
  }
  return matched;
}

}  // namespace qsel
