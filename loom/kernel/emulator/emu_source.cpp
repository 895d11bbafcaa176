#include "loom/kernel/emulator/emu_source.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "loom/kernel/emulator/emu_debug_source.h"
#include "loom/kernel/module_state.h"

namespace loom::cpu_emulator {

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

namespace {

// The source with comments, string and character literals blanked (newlines kept), for scanning.
std::string strip_comments(const std::string& s) {
  std::string r = s;
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i] == '/' && i + 1 < r.size() && r[i + 1] == '/') {
      while (i < r.size() && r[i] != '\n') r[i++] = ' ';
    } else if (r[i] == '/' && i + 1 < r.size() && r[i + 1] == '*') {
      r[i] = r[i + 1] = ' ';
      i += 2;
      while (i + 1 < r.size() && !(r[i] == '*' && r[i + 1] == '/')) {
        if (r[i] != '\n') r[i] = ' ';
        ++i;
      }
      if (i + 1 < r.size()) r[i] = r[i + 1] = ' ';
      ++i;
    } else if (r[i] == '"' || (r[i] == '\'' && (i == 0 || !isalnum(static_cast<unsigned char>(r[i - 1]))))) {
      // A string or character literal ('{' must not count as a brace); a quote after a
      // digit is a digit separator (1'000), not a literal.
      const char quote = r[i++];
      while (i < r.size() && r[i] != quote && r[i] != '\n') {
        if (r[i] == '\\' && i + 1 < r.size()) r[i++] = ' ';
        r[i++] = ' ';
      }
    }
  }
  return r;
}

struct Found {
  std::string name;       // as written: "k"
  std::string qualified;  // with its enclosing named namespaces: "ns::k"
  bool is_template = false;
  bool extern_c = false;  // found by its plain name, as cuModuleGetFunction finds it on a GPU
  ParamList params;       // the text between the parentheses
  size_t body_begin = 0, body_end = 0;  // [begin, end) of the body in the stripped text
  int max_threads = 0;    // __launch_bounds__'s first argument when it is an integer literal
};

// The namespaces and extern "C" blocks open at a point of the stripped text, found by
// walking its braces once from the start (kernels are visited in order).
class ScopeWalker {
 public:
  explicit ScopeWalker(const std::string& text) : t_(text) {}

  void advance_to(size_t p) {
    for (; pos_ < p && pos_ < t_.size(); ++pos_) {
      if (t_[pos_] == '{') {
        stack_.push_back(classify(pos_));
      } else if (t_[pos_] == '}' && !stack_.empty()) {
        stack_.pop_back();
      }
    }
  }
  /// "a::b::" for the named namespaces open here (anonymous ones need no qualifier).
  std::string qualifier() const {
    std::string q;
    for (const Open& o : stack_)
      if (!o.ns.empty()) q += o.ns + "::";
    return q;
  }
  bool in_extern_c_block() const {
    for (const Open& o : stack_)
      if (o.extern_c) return true;
    return false;
  }

 private:
  struct Open {
    std::string ns;  // a named namespace
    bool extern_c = false;
  };
  // What a '{' opens, from the words before it (back to the previous ; { or }).
  Open classify(size_t brace) const {
    static const std::regex ns_re(R"((?:^|[^\w])namespace\s*([\w:]*)\s*$)");
    static const std::regex extern_c_re(R"(extern\s*"\s*"\s*$)");  // string contents are blanked
    size_t b = brace;
    while (b > 0 && t_[b - 1] != ';' && t_[b - 1] != '{' && t_[b - 1] != '}') --b;
    const std::string head = t_.substr(b, brace - b);
    Open o;
    std::smatch m;
    if (std::regex_search(head, m, ns_re)) o.ns = m[1].str();
    o.extern_c = std::regex_search(head, extern_c_re);
    return o;
  }
  const std::string& t_;
  size_t pos_ = 0;
  std::vector<Open> stack_;
};

// Every __global__ function definition; with `declarations`, the parameter lists of the
// declarations without a body are added to it.
std::vector<Found> find_kernels(const std::string& text, std::vector<ParamList>* declarations = nullptr) {
  static const std::regex re(
      R"(__global__\s+(?:static\s+)?(?:__launch_bounds__\s*\(([^)]*)\)\s*)?void\s+(?:__launch_bounds__\s*\(([^)]*)\)\s*)?(\w+)\s*\()");
  static const std::regex extern_c_before(R"(extern\s*"\s*"\s*$)");
  std::vector<Found> out;
  ScopeWalker scopes(text);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    Found f;
    f.name = (*it)[3].str();
    // __launch_bounds__(max threads, ...): an integer literal bounds the block (a macro or an
    // expression is not read: no bound then).
    const std::string bounds = trim((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
    const std::string first = trim(bounds.substr(0, bounds.find(',')));
    if (!first.empty() && first.size() < 8 && first.find_first_not_of("0123456789") == std::string::npos)
      f.max_threads = std::stoi(first);
    size_t p = static_cast<size_t>(it->position(0));
    scopes.advance_to(p);
    f.qualified = scopes.qualifier() + f.name;
    // "template <...> __global__ void k(": the last non-space character before is '>'.
    size_t q = p;
    while (q > 0 && isspace(static_cast<unsigned char>(text[q - 1]))) --q;
    // A '>' that ends a preprocessor line (#include <stdio.h>) is no template's.
    size_t line = q;
    while (line > 0 && text[line - 1] != '\n') --line;
    while (line < q && isspace(static_cast<unsigned char>(text[line]))) ++line;
    f.is_template = q > 0 && text[q - 1] == '>' && !(line < q && text[line] == '#');
    f.extern_c = scopes.in_extern_c_block() ||
                 std::regex_search(text.substr(p >= 64 ? p - 64 : 0, p >= 64 ? 64 : p), extern_c_before);
    size_t i = static_cast<size_t>(it->position(0) + it->length(0));  // after '('
    f.params.begin = i;
    int depth = 1;
    while (i < text.size() && depth > 0) depth += text[i] == '(' ? 1 : text[i] == ')' ? -1 : 0, ++i;
    f.params.end = i > f.params.begin ? i - 1 : i;
    while (i < text.size() && text[i] != '{' && text[i] != ';') ++i;
    if (i >= text.size() || text[i] == ';') {  // a declaration: the definition comes elsewhere
      if (declarations) declarations->push_back(f.params);
      continue;
    }
    f.body_begin = i;
    depth = 0;
    do {
      depth += text[i] == '{' ? 1 : text[i] == '}' ? -1 : 0;
      ++i;
    } while (i < text.size() && depth > 0);
    f.body_end = i;
    out.push_back(f);
  }
  return out;
}

// The kernel a name expression names, for the barrier scan: "&ns::k<float, 4>" and
// "(void (*)(float*))ns::k" both give "k".
std::string expression_base(const std::string& e) {
  std::string s = e;
  size_t i = 0;
  while (i < s.size() && (isspace(static_cast<unsigned char>(s[i])) || s[i] == '&')) ++i;
  if (i < s.size() && s[i] == '(') {  // a cast first: skip its parentheses
    int depth = 0;
    do depth += s[i] == '(' ? 1 : s[i] == ')' ? -1 : 0, ++i;
    while (i < s.size() && depth > 0);
  }
  s = s.substr(i);
  s = s.substr(0, s.find('<'));
  const size_t colon = s.rfind("::");
  if (colon != std::string::npos) s = s.substr(colon + 2);
  std::string r;
  for (char c : s)
    if (isalnum(static_cast<unsigned char>(c)) || c == '_') r += c;
  return r;
}

// `extern __shared__ T name[];` cannot be a macro: it becomes an object that reads the
// running block's arena (at namespace scope too). Newlines inside the match are kept so
// line numbers still match the user's source.
std::string rewrite_dynamic_shared(const std::string& code) {
  static const std::regex re(
      R"(extern\s+__shared__\s+(?:__align__\s*\(\s*\d+\s*\)\s*)?([A-Za-z_][\w:\s<>,*]*?)\s*(?:__align__\s*\(\s*\d+\s*\)\s*)?\b([A-Za-z_]\w*)\s*\[\s*\]\s*;)");
  std::string out;
  auto last = code.cbegin();
  for (auto it = std::sregex_iterator(code.begin(), code.end(), re); it != std::sregex_iterator(); ++it) {
    const auto& m = *it;
    out.append(last, m[0].first);
    out += "static constexpr loom_emu::DynamicShared<" + m[1].str() + "> " + m[2].str() + "{};";
    for (auto c = m[0].first; c != m[0].second; ++c)
      if (*c == '\n') out += '\n';
    last = m[0].second;
  }
  out.append(last, code.cend());
  return out;
}

// The identifiers each function definition's body mentions, by function name (overloads
// and same-named methods merge), for the names a kernel may reach (PlannedKernel::reaches).
// A '{' outside every function body whose head (back to the previous ; { or }) has a
// parameter list opens a function body; other braces (namespaces, classes) are scopes.
// With `spans`, each named body's [begin, end) in `t` and its function's name.
struct Span {
  size_t begin, end;
  std::string name;
};
std::map<std::string, std::set<std::string>> function_bodies(const std::string& t, std::vector<Span>* spans = nullptr) {
  static const std::regex name_before_paren(R"(([A-Za-z_]\w*)\s*(?:<[^(){};]*>)?\s*\($)");
  static const std::set<std::string> not_names = {"__launch_bounds__", "__attribute__", "decltype", "noexcept",
                                                  "alignas", "__align__", "throw", "sizeof", "if", "for",
                                                  "while", "switch", "return", "operator"};
  static const std::regex word(R"([A-Za-z_]\w*)");
  std::map<std::string, std::set<std::string>> bodies;
  size_t prev = 0;  // just after the previous ; { or } outside function bodies
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i] == ';' || t[i] == '}') prev = i + 1;
    if (t[i] != '{') continue;
    const std::string head = t.substr(prev, i - prev);
    size_t end = i + 1;
    int depth = 1;
    while (end < t.size() && depth > 0) depth += t[end] == '{' ? 1 : t[end] == '}' ? -1 : 0, ++end;
    std::string name;  // the identifier before the last top-level '(' that is not a keyword's
    for (size_t p = 0, d = 0; p < head.size(); ++p) {
      if (head[p] == ')' && d > 0) --d;
      if (head[p] != '(' || d++ > 0) continue;
      std::smatch m;
      const std::string before = head.substr(0, p + 1);
      if (std::regex_search(before, m, name_before_paren) && !not_names.count(m[1].str())) name = m[1].str();
    }
    prev = i + 1;
    if (name.empty()) continue;  // a namespace, class or initializer: look inside
    if (spans) spans->push_back({i, end, name});
    std::set<std::string>& ids = bodies[name];
    const std::string body = t.substr(i, end - i);
    for (auto it = std::sregex_iterator(body.begin(), body.end(), word); it != std::sregex_iterator(); ++it)
      ids.insert(it->str());
    i = end - 1;
    prev = end;
  }
  return bodies;
}

// The identifiers `kernel`'s bodies mention, directly or through the bodies of the
// functions they name, and the kernel's own name.
std::set<std::string> reaches(const std::map<std::string, std::set<std::string>>& bodies, const std::string& kernel) {
  std::set<std::string> seen{kernel};
  std::vector<std::string> todo{kernel};
  while (!todo.empty()) {
    const auto it = bodies.find(todo.back());
    todo.pop_back();
    if (it == bodies.end()) continue;
    for (const std::string& id : it->second)
      if (seen.insert(id).second) todo.push_back(id);
  }
  return seen;
}

// The first name at or after `from` that makes a kernel wait for other threads:
// __syncthreads (and its counting forms), __syncwarp, the warp shuffles, votes and matches,
// __activemask (loom_cuda_emu_warp.h), cooperative groups' this_grid and this_thread_block
// (loom_cuda_emu_cg.h); npos when none.
size_t find_sync(const std::string& t, size_t from) {
  static const char* const names[] = {"__syncthreads", "__syncwarp", "__shfl", "__ballot", "__all_sync",
                                      "__any_sync", "__uni_sync", "__match_any_sync", "__match_all_sync",
                                      "__activemask", "this_grid", "this_thread_block"};
  size_t best = std::string::npos;
  for (const char* n : names) best = std::min(best, t.find(n, from));
  return best;
}

}  // namespace

Plan plan(const ModuleState& m, bool debug) {
  const std::string text = strip_comments(m.code);
  std::vector<ParamList> lists;  // debug: every parameter list to rewrite
  const std::vector<Found> found = find_kernels(text, &lists);
  // A kernel runs as fibers if it may reach a barrier or a warp collective: its body names
  // one, or the body of a function it names (directly or through others). One outside
  // every function body (in a macro, say) may be reached from any kernel: then every
  // kernel runs as fibers.
  std::vector<Span> spans;
  const auto bodies = function_bodies(text, &spans);
  std::set<std::string> syncing;  // the functions whose bodies name one
  size_t total = 0;
  bool stray = false;
  for (size_t p = find_sync(text, 0); p != std::string::npos; p = find_sync(text, p + 1)) {
    ++total;
    bool inside = false;
    for (const Span& s : spans)
      if (p >= s.begin && p < s.end) syncing.insert(s.name), inside = true;
    for (const Found& f : found) inside = inside || (p >= f.body_begin && p < f.body_end);
    stray = stray || !inside;
  }
  // A name expression that names no kernel found here (a macro made it, say) takes fibers
  // when any barrier exists.
  auto uses_barrier = [&](const std::string& base) {
    if (stray) return true;
    bool known = false;
    for (const Found& f : found) {
      if (f.name != base) continue;
      known = true;
      if (find_sync(text, f.body_begin) < f.body_end) return true;
    }
    if (!known) return total > 0;
    for (const std::string& id : reaches(bodies, base))
      if (syncing.count(id)) return true;
    return false;
  };
  auto whole_block = [&](const std::string& base) {
    return text.find("LOOM_EMU_WHOLE_BLOCK(" + base + ",") != std::string::npos;
  };
  auto launch_bound = [&](const std::string& base) {
    for (const Found& f : found)
      if (f.name == base && f.max_threads) return f.max_threads;
    return 0;
  };
  auto pointer_params = [&](const std::string& base) {
    std::vector<std::string> names;
    if (debug)
      for (const Found& f : found)
        if (f.name == base) names = pointer_parameter_names(text, f.params);
    return names;
  };
  // As on a GPU: name expressions by their text, extern "C" kernels by their name; a C++
  // kernel without a name expression is not found (its symbol is mangled there).
  Plan p;
  for (const auto& [name, ids] : bodies) p.functions.insert(name);
  std::vector<std::string> refs;  // what each entry point names in C++
  std::set<std::string> seen;
  for (const std::string& e : m.name_expressions) {
    if (!seen.insert(e).second) continue;
    const std::string base = expression_base(e);
    p.kernels.push_back({e, uses_barrier(base), pointer_params(base), base, reaches(bodies, base)});
    p.kernels.back().max_threads = launch_bound(base);
    p.kernels.back().whole_block = whole_block(base);
    refs.push_back("(" + (debug ? checked_name_expression(e) : e) + ")");
  }
  // g++ gives an extern "C" function named like a C library function (abort, exit, strlen)
  // that builtin's meaning (noreturn, pure) unless -fno-builtin-<name>, which the
  // precompiled header would have to be built with: the kernel takes a fresh name instead.
  // Entry points name it through the same macro, and kernels are found by their entry
  // points, never by symbol, so the name is the user's everywhere else.
  std::string renames, clashes;
  std::set<std::string> renamed;
  for (const Found& f : found) {
    if (f.is_template || !f.extern_c) {
      p.unexported.insert(f.name);
      continue;
    }
    if (renamed.insert(f.name).second) {
      const std::string n = f.name, guard = "#if defined(__has_builtin)\n#if __has_builtin(__builtin_" + n + ")\n";
      renames += guard + "#define " + n + " loom_kernel_" + n + "\n#endif\n#endif\n";
      // A name CUDA's device API declares too (j1, sin) must still clash with it, as it
      // does under NVRTC: the kernel's type is declared under its own name at the end,
      // at the kernel's line.
      const size_t line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + f.params.begin, '\n'));
      clashes += guard + "#undef " + n + "\n#line " + std::to_string(line) + " \"" + kProgramName +
                 "\"\nextern \"C\" decltype(loom_kernel_" + n + ") " + n + ";\n#endif\n#endif\n";
    }
    if (!seen.insert(f.name).second) continue;
    p.kernels.push_back({f.name, uses_barrier(f.name), pointer_params(f.name), f.name, reaches(bodies, f.name)});
    p.kernels.back().max_threads = f.max_threads;
    p.kernels.back().whole_block = whole_block(f.name);
    refs.push_back("&" + f.qualified);
  }

  std::string code = m.code;
  if (debug) {
    for (const Found& f : found) lists.push_back(f.params);
    code = checked_parameters(m.code, text, lists);  // positions in `text` are those of m.code
    code = checked_casts(code, strip_comments(code));
  }
  std::ostringstream s;
  s << "#include \"loom_cuda_emu.h\"\n" << renames << "#line 1 \"" << kProgramName << "\"\n"
    << rewrite_dynamic_shared(code) << "\n#line 1 \"loom_emulator_entry_points.cpp\"\n";
  if (debug) s << "extern \"C\" LOOM_EMU_EXPORT void* loom_emu_tls_anchor() { return loom_emu::tls_anchor(); }\n";
  // The parameters' names are the emulator's own, so that a kernel named `a` or `s` is
  // not hidden by them.
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const std::string& n = refs[i];
    s << "extern \"C\" LOOM_EMU_EXPORT void loom_emu_block_" << i << "(void** loom_emu_a, loom_emu::ThreadCtx* loom_emu_c) { loom_emu::run_block<"
      << n << ">(loom_emu_a, loom_emu_c); }\n"
      << "extern \"C\" LOOM_EMU_EXPORT void loom_emu_thread_" << i << "(void** loom_emu_a, loom_emu::ThreadCtx* loom_emu_c) { loom_emu::run_thread<"
      << n << ">(loom_emu_a, loom_emu_c); }\n"
      << "extern \"C\" LOOM_EMU_EXPORT int loom_emu_params_" << i << "(size_t* loom_emu_s, int loom_emu_cap) { return loom_emu::param_sizes<" << n
      << ">(loom_emu_s, loom_emu_cap); }\n";
  }
  s << clashes;
  p.source = s.str();
  return p;
}

std::vector<KernelDefinition> kernel_definitions(const std::string& code) {
  const std::string text = strip_comments(code);
  std::vector<KernelDefinition> out;
  for (const Found& f : find_kernels(text)) {
    KernelDefinition d{f.name, f.qualified, f.is_template, f.extern_c, {}, {}};
    if (f.is_template) {  // "template <...>" before "__global__": match its angle brackets back
      size_t q = text.rfind("__global__", f.params.begin);
      while (q > 0 && isspace(static_cast<unsigned char>(text[q - 1]))) --q;
      size_t e = q > 0 ? q - 1 : 0, b = e;
      for (int depth = 0; b > 0;) {
        depth += text[b] == '>' ? 1 : text[b] == '<' ? -1 : 0;
        if (depth == 0) break;
        --b;
      }
      if (b < e) d.template_params = text.substr(b + 1, e - b - 1);
    }
    int depth = 0;
    size_t start = f.params.begin;
    for (size_t i = f.params.begin; i <= f.params.end; ++i) {  // top-level commas split them
      const char c = i < f.params.end ? text[i] : ',';
      if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
      else if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
      else if (c == ',' && depth <= 0) d.params.push_back(text.substr(start, i - start)), start = i + 1;
    }
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace loom::cpu_emulator
