// The indexing, sorting and shape families reach their backends through dispatch(): a
// hook sees each of their ops under its public name, with the traceable flag the split
// between device part and host read promises (backend/indexing.h, sorting.h, shape_ops.h).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "loom/dispatch/dispatch.h"
#include "loom/loom.h"

namespace loom {
namespace {

// Records the ops of the three families (other families' ops, such as the copies that
// materialize an index, are left out: they are theirs to test).
struct Recorder : DispatchHook {
  std::vector<std::string> names;
  std::vector<bool> traceable;
  int afters = 0;
  static bool ours(const PrimitiveInfo& op) {
    return !std::strcmp(op.family, "indexing") || !std::strcmp(op.family, "sorting") ||
           !std::strcmp(op.family, "shape_ops");
  }
  void before(const OpEvent& e) override {
    if (!ours(e.op)) return;
    names.push_back(e.op.name);
    traceable.push_back(e.op.traceable);
  }
  void after(const OpEvent& e) override { afters += ours(e.op) ? 1 : 0; }
};

struct Hooked {
  Recorder rec;
  Hooked() { add_dispatch_hook(&rec); }
  ~Hooked() { remove_dispatch_hook(&rec); }
};

Array ints(const std::vector<int64_t>& v) {
  return from_host(HostView{v.data(), int64, {static_cast<int64_t>(v.size())}, {8}}, cpu());
}

using Names = std::vector<std::string>;

TEST(IndexingSortingDispatch, EveryOpIsSeenUnderItsPublicName) {
  Hooked h;
  const Array x = ints({3, 0, 2, 0, 1});
  sort(x);
  argsort(x);
  searchsorted(ints({1, 2, 3}), ints({2}));
  searchsorted(ints({3, 1, 2}), ints({2}), "left", ints({1, 2, 0}));
  getitem(x, {ints({0, 4})});
  setitem(x.copy(), {ints({1})}, ints({7}));
  at_update(x, {ints({1})}, ints({7}), AtOp::add);
  count_nonzero(x);
  nonzero(x);
  repeat(x, std::vector<int64_t>{1, 2, 0, 1, 1});
  // getitem of an index-shaped result is one pass outside tracing (check and gather together).
  EXPECT_EQ(h.rec.names, (Names{"sort", "argsort", "searchsorted", "searchsorted", "searchsorted", "getitem",
                                "setitem", "setitem", "at", "at", "count_nonzero", "nonzero", "nonzero", "repeat"}));
  EXPECT_EQ(h.rec.afters, static_cast<int>(h.rec.names.size()));
  for (bool t : h.rec.traceable) EXPECT_TRUE(t);
}

TEST(IndexingSortingDispatch, GetitemOfRowsIsOffsetsThenGather) {
  Hooked h;
  const Array rows = getitem(reshape(ints({1, 2, 3, 4, 5, 6}), {3, 2}), {ints({2, 0})});
  EXPECT_EQ(h.rec.names, (Names{"getitem", "getitem"}));
  std::vector<int64_t> got(4);
  rows.copy_to_host(got.data());
  EXPECT_EQ(got, (std::vector<int64_t>{5, 6, 1, 2}));
}

TEST(IndexingSortingDispatch, UniqueSaysItCannotBeTraced) {
  Hooked h;
  unique(ints({2, 1, 2}));
  ASSERT_EQ(h.rec.names, Names{"unique"});
  EXPECT_FALSE(h.rec.traceable[0]);
}

TEST(IndexingSortingDispatch, AFailedBoundsCheckRaisesAfterItsDevicePart) {
  Hooked h;
  EXPECT_THROW(getitem(ints({1, 2}), {ints({5})}), std::out_of_range);
  EXPECT_THROW(searchsorted(ints({1, 2}), ints({1}), "left", ints({0, 9})), std::invalid_argument);
  EXPECT_EQ(h.rec.names, (Names{"getitem", "searchsorted"}));
}

}  // namespace
}  // namespace loom
