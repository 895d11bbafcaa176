#include "loom/core/shape.h"

#include <gtest/gtest.h>

#include "loom/core/error.h"

namespace loom {

TEST(Shape, SizeAndStrides) {
  EXPECT_EQ(shape_size({}), 1);
  EXPECT_EQ(shape_size({2, 3, 4}), 24);
  EXPECT_EQ(shape_size({2, 0, 4}), 0);
  EXPECT_THROW(shape_size({2, -1}), std::invalid_argument);
  EXPECT_THROW(shape_size({INT64_MAX / 2, 3}), std::invalid_argument);
  EXPECT_EQ(contiguous_strides({2, 3, 4}, 4), (Strides{48, 16, 4}));
  EXPECT_TRUE(is_c_contiguous({2, 3}, {12, 4}, 4));
  EXPECT_FALSE(is_c_contiguous({2, 3}, {4, 8}, 4));
  EXPECT_TRUE(is_c_contiguous({1, 3}, {999, 4}, 4));  // size-1 dims may have any stride
}

TEST(Shape, Broadcast) {
  EXPECT_EQ(broadcast_shapes({3, 1}, {4}, "t"), (Shape{3, 4}));
  EXPECT_EQ(broadcast_shapes({}, {2, 2}, "t"), (Shape{2, 2}));
  try {
    broadcast_shapes({3}, {4}, "add");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("[add]"), std::string::npos);
  }
}

TEST(Shape, Collapse) {
  auto l = collapse_dims({2, 3, 4}, {48, 16, 4});
  EXPECT_EQ(l.shape, (Shape{24}));
  EXPECT_EQ(l.strides, (Strides{4}));
  l = collapse_dims({2, 3, 4}, {64, 16, 4});  // padded rows: two dims remain
  EXPECT_EQ(l.shape, (Shape{2, 12}));
  l = collapse_dims({3, 1, 5}, {-20, 7, -4});
  EXPECT_EQ(l.shape, (Shape{15}));
  EXPECT_EQ(l.strides, (Strides{-4}));
}

}  // namespace loom
