#include "loom/backend/cpu/emulator/emu_source.h"

#include <cctype>
#include <regex>
#include <set>
#include <sstream>

#include "loom/backend/cpu/emulator/emu_debug_source.h"
#include "loom/kernel/module_state.h"

namespace loom::cpu_emulator {
namespace {

// The source with comments and string literals blanked (newlines kept), for scanning.
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
    } else if (r[i] == '"') {
      ++i;
      while (i < r.size() && r[i] != '"' && r[i] != '\n') {
        if (r[i] == '\\' && i + 1 < r.size()) r[i++] = ' ';
        r[i++] = ' ';
      }
    }
  }
  return r;
}

struct Found {
  std::string name;
  bool is_template = false;
  ParamList params;                     // the text between the parentheses
  size_t body_begin = 0, body_end = 0;  // [begin, end) of the body in the stripped text
};

// Every __global__ function definition; with `declarations`, the parameter lists of the
// declarations without a body are added to it.
std::vector<Found> find_kernels(const std::string& text, std::vector<ParamList>* declarations = nullptr) {
  static const std::regex re(
      R"(__global__\s+(?:static\s+)?(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\()");
  std::vector<Found> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    Found f;
    f.name = (*it)[1].str();
    size_t p = static_cast<size_t>(it->position(0));
    // "template <...> __global__ void k(": the last non-space character before is '>'.
    size_t q = p;
    while (q > 0 && isspace(static_cast<unsigned char>(text[q - 1]))) --q;
    f.is_template = q > 0 && text[q - 1] == '>';
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

}  // namespace

Plan plan(const ModuleState& m, bool debug) {
  const std::string text = strip_comments(m.code);
  std::vector<ParamList> lists;  // debug: every parameter list to rewrite
  const std::vector<Found> found = find_kernels(text, &lists);
  // A __syncthreads outside every kernel body (in a __device__ helper) may be reached from
  // any kernel: then every kernel runs as fibers.
  size_t total = 0, inside = 0;
  for (size_t p = text.find("__syncthreads"); p != std::string::npos; p = text.find("__syncthreads", p + 1)) {
    ++total;
    for (const Found& f : found)
      if (p >= f.body_begin && p < f.body_end) {
        ++inside;
        break;
      }
  }
  const bool helper_syncs = inside < total;
  auto uses_barrier = [&](const std::string& base) {
    if (helper_syncs) return true;
    for (const Found& f : found)
      if (f.name == base && text.find("__syncthreads", f.body_begin) < f.body_end) return true;
    return false;
  };
  auto pointer_params = [&](const std::string& base) {
    std::vector<std::string> names;
    if (debug)
      for (const Found& f : found)
        if (f.name == base) names = pointer_parameter_names(text, f.params);
    return names;
  };
  Plan p;
  std::set<std::string> seen;
  for (const std::string& e : m.name_expressions) {
    if (!seen.insert(e).second) continue;
    std::string base = e.substr(0, e.find('<'));
    while (!base.empty() && isspace(static_cast<unsigned char>(base.back()))) base.pop_back();
    p.kernels.push_back({e, uses_barrier(base), pointer_params(base)});
  }
  for (const Found& f : found)
    if (!f.is_template && seen.insert(f.name).second)
      p.kernels.push_back({f.name, uses_barrier(f.name), pointer_params(f.name)});

  std::string code = m.code;
  if (debug) {
    for (const Found& f : found) lists.push_back(f.params);
    code = checked_parameters(m.code, text, lists);  // positions in `text` are those of m.code
    code = checked_casts(code, strip_comments(code));
  }
  std::ostringstream s;
  s << "#include \"loom_cuda_emu.h\"\n#line 1 \"" << kProgramName << "\"\n"
    << rewrite_dynamic_shared(code) << "\n#line 1 \"loom_emulator_entry_points.cpp\"\n";
  if (debug) s << "extern \"C\" LOOM_EMU_EXPORT void* loom_emu_tls_anchor() { return loom_emu::tls_anchor(); }\n";
  for (size_t i = 0; i < p.kernels.size(); ++i) {
    const std::string& n = p.kernels[i].name;
    s << "extern \"C\" LOOM_EMU_EXPORT void loom_emu_block_" << i << "(void** a, loom_emu::ThreadCtx* c) { loom_emu::run_block<&"
      << n << ">(a, c); }\n"
      << "extern \"C\" LOOM_EMU_EXPORT void loom_emu_thread_" << i << "(void** a, loom_emu::ThreadCtx* c) { loom_emu::run_thread<&"
      << n << ">(a, c); }\n"
      << "extern \"C\" LOOM_EMU_EXPORT int loom_emu_params_" << i << "(size_t* s, int cap) { return loom_emu::param_sizes<&" << n
      << ">(s, cap); }\n";
  }
  p.source = s.str();
  return p;
}

}  // namespace loom::cpu_emulator
