// The whole public C++ API of loom.
#pragma once
#include "loom/array.h"
#include "loom/device.h"
#include "loom/dtype.h"
#include "loom/error.h"
#include "loom/memory.h"
#include "loom/ops/creation.h"
#include "loom/ops/elementwise.h"
#include "loom/ops/reduce.h"
#include "loom/scalar.h"
#include "loom/shape.h"
#include "loom/stream.h"
#include "loom/version.h"
