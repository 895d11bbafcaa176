#include "loom/runtime/compile_log.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>
#include <vector>

namespace loom {
namespace {

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(s);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// The line number a diagnostic line points at in `program`, or 0. NVRTC writes
// "name(LINE): error", gcc and clang "name:LINE:COL: error".
int diagnostic_line(const std::string& line, const std::string& program) {
  size_t at = line.find(program);
  if (at == std::string::npos) return 0;
  at += program.size();
  if (at >= line.size() || (line[at] != '(' && line[at] != ':')) return 0;
  const char* digits = line.c_str() + at + 1;
  char* end = nullptr;
  const long n = std::strtol(digits, &end, 10);
  if (end == digits || n <= 0) return 0;
  const bool nvrtc = line[at] == '(' && *end == ')';
  const bool gcc = line[at] == ':' && *end == ':';
  return nvrtc || gcc ? static_cast<int>(n) : 0;
}

}  // namespace

std::string source_excerpt(const std::string& source, const std::string& log,
                           const std::string& program_name, int context, int max_errors) {
  const std::vector<std::string> src = split_lines(source);
  std::set<int> reported;
  for (const std::string& line : split_lines(log)) {
    const int n = diagnostic_line(line, program_name);
    if (n > 0 && n <= static_cast<int>(src.size())) reported.insert(n);
    if (static_cast<int>(reported.size()) >= max_errors) break;
  }
  if (reported.empty()) return {};
  const int width = static_cast<int>(std::to_string(src.size()).size());
  std::ostringstream out;
  int shown_to = 0;  // last line printed, so overlapping windows print each line once
  for (int n : reported) {
    const int first = std::max({1, n - context, shown_to + 1});
    const int last = std::min(static_cast<int>(src.size()), n + context);
    if (shown_to > 0 && first > shown_to + 1) out << "   ...\n";
    for (int i = first; i <= last; ++i) {
      std::string num = std::to_string(i);
      out << (reported.count(i) ? "> " : "  ") << std::string(width - num.size(), ' ') << num
          << " | " << src[i - 1] << '\n';
    }
    shown_to = std::max(shown_to, last);
  }
  return out.str();
}

}  // namespace loom
