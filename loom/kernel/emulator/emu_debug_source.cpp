#include "loom/kernel/emulator/emu_debug_source.h"

#include <algorithm>
#include <cctype>

#include "loom/kernel/emulator/emu_source.h"

namespace loom::cpu_emulator {
namespace {

// The identifiers of `s`, in order.
std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    if (ident_char(s[i])) {
      size_t j = i;
      while (j < s.size() && ident_char(s[j])) ++j;
      out.push_back(s.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

bool is_qualifier(const std::string& w) {
  return w == "const" || w == "volatile" || w == "__restrict__" || w == "__restrict" || w == "restrict";
}

// [begin, end) of each parameter: top-level commas split them.
std::vector<ParamList> split(const std::string& text, ParamList list) {
  std::vector<ParamList> out;
  int depth = 0;
  size_t start = list.begin;
  for (size_t i = list.begin; i < list.end; ++i) {
    const char c = text[i];
    if (c == '(' || c == '<' || c == '[' || c == '{') ++depth;
    else if (c == ')' || c == '>' || c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 0) {
      out.push_back({start, i});
      start = i + 1;
    }
  }
  out.push_back({start, list.end});
  return out;
}

struct PointerParam {
  bool ok = false;
  std::string pointee, name;
};

// `const float* __restrict__ x` -> pointee "const float", name "x".
PointerParam parse(const std::string& param) {
  PointerParam r;
  const std::string p = trim(param);
  if (p.empty() || p.find_first_of("()&[=.") != std::string::npos) return r;  // function pointer, reference, array, default, ...
  int depth = 0;
  size_t star = std::string::npos;
  for (size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '<') ++depth;
    else if (p[i] == '>') --depth;
    else if (p[i] == '*' && depth == 0) star = i;
  }
  if (star == std::string::npos) return r;
  std::string pointee;
  for (const std::string& w : words(p.substr(0, star)))  // drops __restrict__ in odd places too
    if (w != "__restrict__" && w != "__restrict" && w != "restrict") pointee += w + " ";
  // Keep the punctuation of the type (Foo<int>, ns::T, T*): rebuild from the text instead
  // when it has any.
  const std::string head = trim(p.substr(0, star));
  if (head.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ \t\n\r") != std::string::npos)
    pointee = head;
  pointee = trim(pointee);
  std::vector<std::string> tw = words(pointee);
  tw.erase(std::remove_if(tw.begin(), tw.end(), is_qualifier), tw.end());
  if (tw.empty() || (tw.size() == 1 && tw[0] == "void" && pointee.find('*') == std::string::npos)) return r;
  std::vector<std::string> after = words(p.substr(star + 1));
  after.erase(std::remove_if(after.begin(), after.end(), is_qualifier), after.end());
  if (after.size() > 1) return r;  // something this simple parse does not know: leave it
  r.ok = true;
  r.pointee = pointee;
  r.name = after.empty() ? "" : after[0];
  return r;
}

}  // namespace

std::string checked_parameters(const std::string& code, const std::string& stripped, std::vector<ParamList> lists) {
  std::sort(lists.begin(), lists.end(), [](const ParamList& a, const ParamList& b) { return a.begin < b.begin; });
  std::string out;
  size_t last = 0;
  for (const ParamList& list : lists) {
    if (list.begin < last) continue;
    for (const ParamList& one : split(stripped, list)) {
      const std::string text = stripped.substr(one.begin, one.end - one.begin);
      const PointerParam pp = parse(text);
      if (!pp.ok) continue;
      out.append(code, last, one.begin - last);
      out += " loom_emu::Checked<" + pp.pointee + "> " + pp.name;
      out.append(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), '\n');  // keep line numbers
      last = one.end;
    }
  }
  out.append(code, last, std::string::npos);
  return out;
}

std::string checked_casts(const std::string& code, const std::string& stripped) {
  std::string out;
  size_t last = 0;
  for (size_t i = 0; i < stripped.size(); ++i) {
    if (!ident_char(stripped[i]) || (i > 0 && ident_char(stripped[i - 1]))) continue;
    size_t j = i;
    while (j < stripped.size() && ident_char(stripped[j])) ++j;
    const std::string w = stripped.substr(i, j - i);
    if (w == "reinterpret_cast" || w == "const_cast") {
      out.append(code, last, i - last);
      out += "loom_emu::" + w + "_";
      last = j;
    }
    i = j - 1;
  }
  out.append(code, last, std::string::npos);
  return out;
}

std::string checked_name_expression(const std::string& e) {
  // "(*)" then the parameter list of the function type.
  size_t star = e.find('*');
  while (star != std::string::npos) {
    size_t l = star, r = star + 1;
    while (l > 0 && isspace(static_cast<unsigned char>(e[l - 1]))) --l;
    while (r < e.size() && isspace(static_cast<unsigned char>(e[r]))) ++r;
    if (l > 0 && e[l - 1] == '(' && r < e.size() && e[r] == ')') break;
    star = e.find('*', star + 1);
  }
  if (star == std::string::npos) return e;
  size_t open = e.find('(', e.find(')', star));
  if (open == std::string::npos) return e;
  int depth = 1;
  size_t close = open + 1;
  while (close < e.size() && depth > 0) depth += e[close] == '(' ? 1 : e[close] == ')' ? -1 : 0, ++close;
  if (depth != 0) return e;
  return checked_parameters(e, e, {ParamList{open + 1, close - 1}});
}

std::vector<std::string> pointer_parameter_names(const std::string& stripped, ParamList list) {
  std::vector<std::string> out;
  if (trim(stripped.substr(list.begin, list.end - list.begin)).empty()) return out;
  for (const ParamList& one : split(stripped, list)) {
    const PointerParam pp = parse(stripped.substr(one.begin, one.end - one.begin));
    out.push_back(pp.ok ? pp.name : "");
  }
  return out;
}

}  // namespace loom::cpu_emulator
