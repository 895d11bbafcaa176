#include "loom/runtime/device.h"

#include <gtest/gtest.h>

#include "loom/array/array.h"
#include "loom/core/error.h"
#include "loom/runtime/stream.h"

namespace loom {

TEST(Device, CpuAndQueries) {
  EXPECT_EQ(cpu().str(), "cpu()");
  EXPECT_EQ(devices().front(), cpu());
  EXPECT_EQ(static_cast<int>(devices().size()), num_gpus() + 1);
  if (num_gpus() == 0) {
    EXPECT_EQ(try_gpu(), cpu());
    EXPECT_EQ(try_all_gpus(), std::vector<Device>{cpu()});
    EXPECT_EQ(default_device(), cpu());
  }
  EXPECT_THROW(gpu(-1), std::invalid_argument);  // no device at all: at once
  EXPECT_EQ(parse_device("cpu"), cpu());
  EXPECT_THROW(parse_device("tpu"), std::invalid_argument);
}

// An absent GPU is a value (prints, compares) and fails at its first use, naming the count.
TEST(Device, AbsentGpuFailsAtFirstUse) {
  const Device d = gpu(num_gpus() + 4);
  EXPECT_EQ(d.str(), "gpu(" + std::to_string(num_gpus() + 4) + ")");
  EXPECT_EQ(d, parse_device("gpu:" + std::to_string(num_gpus() + 4)));
  EXPECT_NE(d, cpu());
  const std::string expect = "[gpu] gpu(" + std::to_string(num_gpus() + 4) + ") does not exist: ";
  auto expect_absent = [&](auto&& use) {
    try {
      use();
      FAIL() << "no error";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).rfind(expect, 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find(num_gpus() == 0 ? "no GPU" : "has "), std::string::npos) << e.what();
    }
  };
  expect_absent([&] { check_device_present(d); });
  expect_absent([&] { Array::allocate({3}, float32, d); });
  expect_absent([&] { synchronize(d); });
  expect_absent([&] { properties(d); });
  expect_absent([&] { set_default_device(d); });
  expect_absent([&] { DeviceScope scope(d); });
  EXPECT_EQ(try_gpu(num_gpus() + 4), cpu());
  EXPECT_EQ(static_cast<int>(devices().size()), num_gpus() + 1);
}

TEST(Device, ScopeOverridesDefault) {
  const Device before = default_device();
  {
    DeviceScope scope(cpu());
    EXPECT_EQ(default_device(), cpu());
  }
  EXPECT_EQ(default_device(), before);
}

TEST(Device, MismatchNamesOpAndDevices) {
  try {
    check_same_device("add", cpu(), Device{DeviceType::cuda, 1});
    FAIL();
  } catch (const DeviceMismatchError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("[add] operands are on cpu() and gpu(1)", 0), 0u) << e.what();
  }
}

TEST(Stream, CpuStandInsTime) {
  Event a(cpu()), b(cpu());
  a.record();
  volatile double x = 0;
  for (int i = 0; i < 100000; ++i) x = x + i;
  b.record();
  b.synchronize();
  EXPECT_GE(a.elapsed_time(b), 0.0f);
  EXPECT_TRUE(Stream::create(cpu()).query());
  Event c(cpu());
  EXPECT_THROW(c.elapsed_time(a), std::invalid_argument);  // not recorded
}

}  // namespace loom
