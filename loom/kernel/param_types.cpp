#include "loom/kernel/param_types.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>

#include "loom/kernel/emulator/emu_source.h"

namespace loom {
namespace {

using cpu_emulator::ident_char;
using cpu_emulator::trim;

// Identifiers and single punctuation characters ("::" as one token), spaces dropped.
std::vector<std::string> tokens(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    if (isspace(static_cast<unsigned char>(s[i]))) {
      ++i;
    } else if (ident_char(s[i])) {
      size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      out.push_back(s.substr(i, j - i));
      i = j;
    } else if (s.compare(i, 2, "::") == 0) {
      out.push_back("::");
      i += 2;
    } else {
      out.push_back(std::string(1, s[i++]));
    }
  }
  return out;
}

bool is_keyword_part(const std::string& w) {
  static const char* const k[] = {"void", "bool", "char", "short", "int", "long", "float", "double", "signed", "unsigned"};
  for (const char* x : k)
    if (w == x) return true;
  return false;
}

// Type names of the C and CUDA headers, with their dtype (LP64, as on Linux and in CUDA).
const std::map<std::string, DType>& named_types() {
  static const std::map<std::string, DType> m = {
      {"size_t", uint64},    {"ptrdiff_t", int64},   {"ssize_t", int64},  {"intptr_t", int64},
      {"uintptr_t", uint64}, {"int8_t", int8},       {"int16_t", int16},  {"int32_t", int32},
      {"int64_t", int64},    {"uint8_t", uint8},     {"uint16_t", uint16}, {"uint32_t", uint32},
      {"uint64_t", uint64},  {"__half", float16},    {"half", float16},   {"__nv_bfloat16", bfloat16},
      {"nv_bfloat16", bfloat16}, {"loom_complex64", complex64}, {"loom_complex128", complex128}};
  return m;
}

// The dtype of a combination of C keywords ("unsigned long long", "signed char"), or
// nullopt (void, long double, nonsense). `byte` is set for the char types.
std::optional<DType> keyword_type(const std::vector<std::string>& words, bool* byte) {
  int longs = 0, shorts = 0, ints = 0, chars = 0, floats = 0, doubles = 0, bools = 0, voids = 0;
  bool is_unsigned = false, is_signed = false;
  for (const std::string& w : words) {
    if (w == "long") ++longs;
    else if (w == "short") ++shorts;
    else if (w == "int") ++ints;
    else if (w == "char") ++chars;
    else if (w == "float") ++floats;
    else if (w == "double") ++doubles;
    else if (w == "bool") ++bools;
    else if (w == "void") ++voids;
    else if (w == "unsigned") is_unsigned = true;
    else if (w == "signed") is_signed = true;
  }
  const int kinds = shorts + chars + floats + doubles + bools + voids;
  if ((is_unsigned && is_signed) || ints > 1 || kinds > 1 || longs > 2) return std::nullopt;
  if (floats || doubles || bools || voids) {
    if (is_unsigned || is_signed || ints || longs || shorts) return std::nullopt;
    if (floats) return float32;
    if (doubles) return float64;
    if (bools) return bool_;
    return std::nullopt;  // void
  }
  if (chars) {
    if (longs || ints) return std::nullopt;
    *byte = true;
    return is_unsigned ? uint8 : int8;  // plain char is signed on x86 and in CUDA
  }
  if (shorts) return longs ? std::nullopt : std::optional<DType>(is_unsigned ? uint16 : int16);
  if (longs) return is_unsigned ? uint64 : int64;
  return is_unsigned ? uint32 : int32;  // int, unsigned, signed
}

// The dtype the type words of a declaration name ("unsigned long long", "int32_t"), or
// nullopt. `byte` is set for the char types and void (a pointer to them takes any array).
std::optional<DType> words_type(const std::vector<std::string>& words, bool* byte) {
  if (words.size() == 1 && named_types().count(words[0])) {
    const DType dt = named_types().at(words[0]);
    *byte = dt == int8 || dt == uint8;
    return dt;
  }
  for (const std::string& w : words)
    if (!is_keyword_part(w)) return std::nullopt;
  if (words.size() == 1 && words[0] == "void") *byte = true;  // void*: any element
  return keyword_type(words, byte);
}

bool is_qualifier(const std::string& w) {
  return w == "const" || w == "volatile" || w == "__restrict__" || w == "__restrict" || w == "restrict" ||
         w == "register" || w == "struct" || w == "__grid_constant__" || w == "std" || w == "::";
}

// "LoomArray<const float, 2, true> a" (qualifiers anywhere but inside the number and the
// flag; "::LoomArray"; a flag of 1 or 0; a demangler's "2" or "2u"): sets `t` to the view
// and returns true. Anything else (a pointer or a reference to one, an element type or a
// dimension count it cannot read) returns false and the caller goes on as before.
bool parse_view(const std::vector<std::string>& tk, bool named, ParamType* t) {
  size_t i = 0;
  while (i < tk.size() && is_qualifier(tk[i])) ++i;
  if (i + 1 >= tk.size() || tk[i] != "LoomArray" || tk[i + 1] != "<") return false;
  std::vector<std::string> element;
  for (i += 2; i < tk.size() && tk[i] != ","; ++i) {
    if (is_qualifier(tk[i])) continue;
    if (!ident_char(tk[i][0])) return false;  // T*, a nested template: not a number type
    element.push_back(tk[i]);
  }
  bool byte = false;
  const std::optional<DType> dt = element.empty() ? std::nullopt : words_type(element, &byte);
  if (!dt || i + 4 >= tk.size() || tk[i + 2] != "," || tk[i + 4] != ">") return false;
  const std::string& n = tk[i + 1];
  const std::string& c = tk[i + 3];
  size_t digits = 0;
  while (digits < n.size() && isdigit(static_cast<unsigned char>(n[digits]))) ++digits;
  if (digits == 0 || digits > 3 || n.find_first_not_of("uUlL", digits) != std::string::npos) return false;
  const int ndim = std::stoi(n.substr(0, digits));
  if (ndim < 1 || ndim > ParamType::kMaxViewDims) return false;
  if (c != "true" && c != "false" && c != "1" && c != "0") return false;
  // After the type: qualifiers and, if named, the parameter's name; a * or & is not a view.
  size_t names = 0;
  for (i += 5; i < tk.size(); ++i) {
    if (is_qualifier(tk[i])) continue;
    if (!ident_char(tk[i][0]) || isdigit(static_cast<unsigned char>(tk[i][0])) || ++names > (named ? 1 : 0)) return false;
  }
  t->kind = ParamType::Kind::view;
  t->dtype = *dt;
  t->ndim = static_cast<uint8_t>(ndim);
  t->contiguous = c == "true" || c == "1";
  return true;
}

// "a, b<c, d>, e" split at top-level commas.
std::vector<std::string> split_top(const std::string& s) {
  std::vector<std::string> out;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    const char c = i < s.size() ? s[i] : ',';
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth <= 0) out.push_back(trim(s.substr(start, i - start))), start = i + 1;
  }
  return out;
}

// The text inside the last top-level parentheses of a function type or signature:
// "void ns::k<(int)4>(float*, int)" gives "float*, int".
std::optional<std::string> last_paren_list(const std::string& s) {
  const std::string t = trim(s);
  if (t.empty() || t.back() != ')') return std::nullopt;
  int depth = 0;
  for (size_t i = t.size(); i-- > 0;) {
    depth += t[i] == ')' ? 1 : t[i] == '(' ? -1 : 0;
    if (depth == 0) return t.substr(i + 1, t.size() - i - 2);
  }
  return std::nullopt;
}

KernelParamTypes from_declarations(const std::vector<std::string>& decls, bool named) {
  KernelParamTypes r;
  r.count_certain = true;
  std::vector<std::string> list = decls;
  if (list.size() == 1 && (trim(list[0]).empty() || trim(list[0]) == "void")) list.clear();  // k() or k(void)
  for (const std::string& d : list) {
    r.params.push_back(parse_param_type(d, named));
    if (!r.params.back().known()) r.count_certain = false;  // it could be a macro of several
  }
  return r;
}

// "ns::k<float, 4>" or "&k<float>" -> base "ns::k", arguments {"float", "4"}.
bool split_expression(const std::string& e, std::string* base, std::vector<std::string>* args) {
  std::string s = trim(e);
  while (!s.empty() && (s[0] == '&' || isspace(static_cast<unsigned char>(s[0])))) s.erase(0, 1);
  const size_t lt = s.find('<');
  *base = trim(s.substr(0, lt));
  for (char c : *base)
    if (!ident_char(c) && c != ':') return false;
  args->clear();
  if (lt == std::string::npos) return true;
  if (s.back() != '>') return false;
  *args = split_top(s.substr(lt + 1, s.size() - lt - 2));
  return true;
}

bool same_name(const std::string& base, const cpu_emulator::KernelDefinition& d) {
  std::string b = base.compare(0, 2, "::") == 0 ? base.substr(2) : base;
  return b == d.qualified || b == d.name;
}

// A template's parameters with its instantiation's arguments substituted: type parameters
// only (typename T / class T), by token; a non-type parameter keeps its name (no type).
std::optional<std::vector<std::string>> instantiate(const cpu_emulator::KernelDefinition& d,
                                                    const std::vector<std::string>& args) {
  const std::vector<std::string> tparams = split_top(d.template_params);
  if (args.size() > tparams.size()) return std::nullopt;
  std::map<std::string, std::string> subst;
  for (size_t i = 0; i < tparams.size(); ++i) {
    const std::string decl = tparams[i].substr(0, tparams[i].find('='));
    std::vector<std::string> w = tokens(decl);
    if (w.size() != 2 || (w[0] != "typename" && w[0] != "class")) continue;  // a value: no type to substitute
    const std::string arg = i < args.size()                    ? args[i]
                            : tparams[i].find('=') != std::string::npos ? trim(tparams[i].substr(tparams[i].find('=') + 1))
                                                               : std::string();
    if (arg.empty()) return std::nullopt;  // deduced from arguments: not handled
    subst[w[1]] = "(" + arg + ")";  // parenthesised so the parser sees one unit
  }
  std::vector<std::string> out;
  for (const std::string& p : d.params) {
    std::string r;
    for (size_t i = 0; i < p.size();) {
      if (!ident_char(p[i])) {
        r += p[i++];
        continue;
      }
      size_t j = i;
      while (j < p.size() && ident_char(p[j])) ++j;
      const std::string w = p.substr(i, j - i);
      auto it = subst.find(w);
      r += it == subst.end() ? w : it->second;
      i = j;
    }
    out.push_back(r);
  }
  return out;
}

// The declarations as written, for messages ("T* y" rather than its substitution).
void keep_written_text(KernelParamTypes* r, const std::vector<std::string>& written) {
  if (r->params.size() != written.size()) return;
  for (size_t i = 0; i < written.size(); ++i) r->params[i].text = trim(written[i]);
}

}  // namespace

std::string ParamType::describe() const {
  switch (kind) {
    case Kind::scalar: return dtype_name(dtype);
    case Kind::pointer: return any_element ? "pointer" : std::string("pointer to ") + dtype_name(dtype);
    case Kind::view:
      return std::string(contiguous ? "view of a C-contiguous " : "view of a ") + std::to_string(ndim) + "-D " +
             dtype_name(dtype) + " array";
    default: return "value of unknown type";
  }
}

ParamType parse_param_type(const std::string& decl_in, bool named) {
  ParamType t;
  t.text = trim(decl_in);
  std::string decl = t.text;
  // Substituted template arguments come parenthesised: "(float)* x", "(const int) n".
  for (char& c : decl)
    if (c == '(' || c == ')') c = ' ';
  if (decl_in.find_first_of("()") != std::string::npos) {
    // A real function pointer or array parameter would have parentheses of its own that
    // substitution does not make: "(*f)(int)". Those are rejected by the checks below.
    if (decl_in.find("(*") != std::string::npos || decl_in.find(")(") != std::string::npos) return t;
  }
  if (decl.find('<') != std::string::npos && parse_view(tokens(decl), named, &t)) return t;
  if (decl.find_first_of("&[=.<>") != std::string::npos) {  // references, arrays, defaults, templates
    // A pointer to a template type ("Vec<float>* v") is still a pointer.
    if (decl.find_first_of("&[=.") == std::string::npos && decl.find('*') != std::string::npos &&
        decl.rfind('>') < decl.rfind('*')) {
      t.kind = ParamType::Kind::pointer;
      t.any_element = true;
    }
    return t;
  }
  std::vector<std::string> words;
  int stars = 0;
  for (const std::string& w : tokens(decl)) {
    if (w == "*") ++stars;
    else if (is_qualifier(w)) continue;
    else if (ident_char(w[0])) words.push_back(w);
    else return t;  // other punctuation: not a plain declaration
  }
  if (words.empty()) return t;
  // The parameter name is the last word unless every word is part of a type.
  if (named && words.size() > 1 && !is_keyword_part(words.back())) words.pop_back();
  bool byte = false;
  const std::optional<DType> type = words_type(words, &byte);
  const bool known = type.has_value();
  const DType dt = type.value_or(float32);
  if (stars > 0) {
    t.kind = ParamType::Kind::pointer;
    t.dtype = dt;
    t.any_element = !known || byte || stars > 1;  // bytes, T** and unknown elements: any array
    return t;
  }
  if (known) {
    t.kind = ParamType::Kind::scalar;
    t.dtype = dt;
  }
  return t;
}

std::optional<std::vector<std::string>> demangled_params(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !d) return std::nullopt;
  const std::optional<std::string> list = last_paren_list(d.get());
  if (!list) return std::nullopt;
  return split_top(*list);
}

std::optional<KernelParamTypes> lowered_param_types(const std::string& lowered) {
  const auto decls = demangled_params(lowered);
  if (!decls) return std::nullopt;
  KernelParamTypes r = from_declarations(*decls, false);
  r.count_certain = true;  // the compiler's own list: one declaration per parameter
  return r;
}

std::optional<KernelParamTypes> source_param_types(const std::string& code, const std::string& name,
                                                   bool is_name_expression) {
  if (is_name_expression && trim(name).compare(0, 1, "(") == 0) {  // "(void (*)(float*, int))k"
    const std::string e = trim(name);
    int depth = 0;
    size_t i = 0;
    do depth += e[i] == '(' ? 1 : e[i] == ')' ? -1 : 0, ++i;
    while (i < e.size() && depth > 0);
    const auto list = last_paren_list(e.substr(1, i - 2));
    if (!list) return std::nullopt;
    return from_declarations(split_top(*list), true);
  }
  std::string base;
  std::vector<std::string> args;
  if (is_name_expression) {
    if (!split_expression(name, &base, &args)) return std::nullopt;
  } else {
    base = name;
  }
  std::optional<std::vector<std::string>> found, written;
  for (const cpu_emulator::KernelDefinition& d : cpu_emulator::kernel_definitions(code)) {
    const bool match = is_name_expression ? same_name(base, d) : d.extern_c && !d.is_template && d.name == name;
    if (!match) continue;
    std::optional<std::vector<std::string>> decls = d.params;
    if (d.is_template) decls = args.empty() ? std::nullopt : instantiate(d, args);
    else if (!args.empty()) continue;  // "k<float>" does not name a plain function
    if (!decls) return std::nullopt;
    // Several definitions (#if branches, overloads) must agree, else which one is compiled
    // cannot be told here.
    if (found && *found != *decls) return std::nullopt;
    found = decls;
    written = d.params;
  }
  if (!found) return std::nullopt;
  KernelParamTypes r = from_declarations(*found, true);
  keep_written_text(&r, *written);
  return r;
}

}  // namespace loom
