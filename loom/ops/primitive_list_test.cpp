// Every primitive's row states its transform rules: a traceable primitive has a vjp rule or
// says why it has none, and a batch rule or says why vmap runs it once per example. A new
// row that forgets either fails here, not as an UnsupportedError in a user's program.
#include "loom/ops/primitive_list.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "loom/graph/op_table.h"
#include "loom/backend/reduce_kinds.h"
#include "loom/kernel/kernel_launch.h"
#include "loom/transforms/control_flow_primitives.h"

namespace loom {
namespace {

std::vector<const PrimitiveInfo*> every_primitive() {
  std::vector<const PrimitiveInfo*> all = all_primitives();
  all.push_back(&kKernelLaunch.info);
  for (const PrimitiveInfo* p : control_flow_primitives()) all.push_back(p);
  return all;
}

TEST(PrimitiveList, EveryTraceableRowStatesItsRules) {
  const auto all = every_primitive();
  ASSERT_GT(all.size(), 100u);  // the op table alone has more
  for (const PrimitiveInfo* p : all) {
    SCOPED_TRACE(std::string(p->family) + "/" + p->name);
    EXPECT_FALSE(p->vjp && p->no_vjp) << "a rule and a reason for having none";
    EXPECT_FALSE(p->batch && p->no_batch) << "a rule and a reason for having none";
    if (!p->traceable) continue;
    EXPECT_TRUE(p->vjp || (p->no_vjp && *p->no_vjp)) << "no vjp rule and no reason";
    EXPECT_TRUE(p->batch || (p->no_batch && *p->no_batch)) << "no batch rule and no reason";
  }
}

TEST(PrimitiveList, RecordsAreListedOnceAndFusionIsWhereTheCompilerExpectsIt) {
  const auto all = every_primitive();
  EXPECT_EQ(std::set<const PrimitiveInfo*>(all.begin(), all.end()).size(), all.size());
  int elementwise = 0, reduction = 0;
  for (const PrimitiveInfo* p : all) {
    if (p->fusion == Fusion::elementwise) {
      ++elementwise;
      EXPECT_STREQ(p->family, "elementwise") << p->name;
    }
    if (p->fusion == Fusion::reduction) {
      ++reduction;
      EXPECT_STREQ(p->family, "reduce") << p->name;
    }
    if (p->fusion != Fusion::none) EXPECT_TRUE(p->traceable && p->vjp && p->batch) << p->name;
  }
  EXPECT_EQ(elementwise, kNumOps);
  EXPECT_EQ(reduction, kNumReduceKinds + 1);  // and std
}

}  // namespace
}  // namespace loom
