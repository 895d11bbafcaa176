#include "loom/runtime/compile_log.h"

#include <gtest/gtest.h>

namespace loom {
namespace {

const char* kSource = "line one\nline two\nline three\nline four\nline five\nline six\nline seven\n";

TEST(SourceExcerpt, MarksTheNvrtcErrorLineWithContext) {
  const std::string log = "k.cu(4): error: identifier \"x\" is undefined\n1 error detected\n";
  const std::string e = source_excerpt(kSource, log, "k.cu", 1);
  EXPECT_EQ(e, "  3 | line three\n> 4 | line four\n  5 | line five\n");
}

TEST(SourceExcerpt, ReadsGccStyleAndMergesNearbyErrors) {
  const std::string log = "k.cpp:2:5: error: a\nk.cpp:3:1: error: b\nk.cpp:7:1: warning: c\n";
  const std::string e = source_excerpt(kSource, log, "k.cpp", 1);
  EXPECT_EQ(e,
            "  1 | line one\n> 2 | line two\n> 3 | line three\n  4 | line four\n   ...\n"
            "  6 | line six\n> 7 | line seven\n");
}

TEST(SourceExcerpt, IgnoresOtherFilesAndLinesOutOfRange) {
  EXPECT_EQ(source_excerpt(kSource, "other.cuh(3): error: x\nk.cu(99): error: y\n", "k.cu"), "");
  EXPECT_EQ(source_excerpt(kSource, "k.cu: something without a line\n", "k.cu"), "");
}

}  // namespace
}  // namespace loom
