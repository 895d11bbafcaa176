#include "loom/kernel/emulator/stack_usage.h"

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

namespace loom::cpu_emulator {
namespace {

struct Node {
  uint64_t frame = 0;
  bool dynamic = false;  // a frame of unknown size
  std::vector<std::string> calls;
};

// Titles of local functions carry "file:" in front, and calls to them ".localalias" after.
std::string normalize(std::string t) {
  const size_t colon = t.rfind(':');
  if (colon != std::string::npos) t = t.substr(colon + 1);
  const std::string alias = ".localalias";
  if (t.size() > alias.size() && t.compare(t.size() - alias.size(), alias.size(), alias) == 0)
    t.resize(t.size() - alias.size());
  return t;
}

// The text between `key: "` and the next quote, from position `from`; "" if absent.
std::string field(const std::string& line, const std::string& key) {
  const std::string k = key + ": \"";
  const size_t b = line.find(k);
  if (b == std::string::npos) return "";
  const size_t s = b + k.size(), e = line.find('"', s);
  return e == std::string::npos ? "" : line.substr(s, e - s);
}

constexpr const char* kIndirect = "__indirect_call";

struct Graph {
  std::map<std::string, Node> nodes;
  uint64_t indirect_cost = 0;  // the deepest chain of any function of the module

  // The deepest chain below `name`; `state` 1 = on the current path (a cycle), 2 = done.
  uint64_t depth(const std::string& name, std::map<std::string, int>& state, std::map<std::string, uint64_t>& memo,
                 bool& bounded, bool follow_indirect) {
    if (name == kIndirect) return follow_indirect ? indirect_cost : 0;
    auto it = nodes.find(name);
    if (it == nodes.end()) return 0;  // outside the module
    int& s = state[name];
    if (s == 1) {
      bounded = false;  // recursion: no finite bound from frames alone
      return 0;
    }
    if (s == 2) return memo[name];
    s = 1;
    uint64_t deepest = 0;
    for (const std::string& c : it->second.calls)
      deepest = std::max(deepest, depth(c, state, memo, bounded, follow_indirect));
    if (it->second.dynamic) bounded = false;
    state[name] = 2;
    return memo[name] = it->second.frame + deepest;
  }
};

}  // namespace

StackNeed stack_need(const std::string& callgraph, const std::string& entry) {
  static const std::regex size_re(R"((\d+) bytes \((static|dynamic|dynamic,bounded)\))");
  Graph g;
  std::istringstream in(callgraph);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("node:", 0) == 0) {
      const std::string t = normalize(field(line, "title"));
      std::smatch m;
      const std::string label = field(line, "label");
      if (t.empty() || t == kIndirect || !std::regex_search(label, m, size_re)) continue;  // not defined here
      Node& n = g.nodes[t];
      n.frame = std::stoull(m[1].str());
      n.dynamic = m[2].str() == "dynamic";
    } else if (line.rfind("edge:", 0) == 0) {
      const std::string s = normalize(field(line, "sourcename")), t = normalize(field(line, "targetname"));
      // The header's one indirect call is the executor's barrier (headroom covers it). The
      // label is "folder/loom_cuda_emu.h:162:16" where the header was found (the compile's
      // scratch folder), or the bare name.
      if (t == kIndirect) {
        const std::string where = field(line, "label");
        const size_t slash = where.rfind('/', where.find(':'));
        if (where.compare(slash == std::string::npos ? 0 : slash + 1, 16, "loom_cuda_emu.h:") == 0) continue;
      }
      if (!s.empty() && !t.empty()) g.nodes[s].calls.push_back(t);  // a caller is always defined here
    }
  }
  StackNeed r;
  if (g.nodes.find(entry) == g.nodes.end()) return r;  // unknown
  r.known = true;
  // First every function without following indirect calls, for what an indirect call costs.
  {
    std::map<std::string, int> state;
    std::map<std::string, uint64_t> memo;
    bool ignored = true;
    for (const auto& [name, node] : g.nodes)
      if (name.rfind("loom_emu_", 0) != 0) g.indirect_cost = std::max(g.indirect_cost, g.depth(name, state, memo, ignored, false));
  }
  std::map<std::string, int> state;
  std::map<std::string, uint64_t> memo;
  r.bytes = g.depth(entry, state, memo, r.bounded, true);
  return r;
}

size_t fiber_stack_bytes(const StackNeed& need) {
  uint64_t want = need.known ? need.bytes + kStackHeadroom : kUnboundedStackExtra;
  if (need.known && !need.bounded) want += kUnboundedStackExtra;
  size_t s = kMinFiberStack;
  while (s < want && s < (size_t{1} << 40)) s *= 2;
  return s;
}

}  // namespace loom::cpu_emulator
