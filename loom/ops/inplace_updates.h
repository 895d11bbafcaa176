// numpy's in-place writers (ops/inplace_updates.cpp): fill_diagonal, place, put and putmask
// write into the array they are given (any strided view), as x[...] = v does, on every device.
#pragma once
#include <string>

#include "loom/array/array.h"

namespace loom {

/// Writes `val` (flattened, repeated cyclically) onto the main diagonal of `a` (at least
/// 2-d; more than 2-d needs equal dimensions). wrap: a tall 2-d a's diagonal restarts
/// every n + 1 rows, as NumPy's.
void fill_diagonal(const Array& a, const Array& val, bool wrap = false);
/// The first N values of `vals` (repeated cyclically) written, in order, where `mask` (of
/// a's size) is true; N is the number of true elements. ValueError for empty vals when
/// N > 0 (the one case that reads the mask back).
void place(const Array& arr, const Array& mask, const Array& vals);
/// a.flat[ind] = v (v repeated cyclically to ind's size); mode "raise" (IndexError for an
/// index outside [-size, size); waits for the device), "wrap" or "clip". Repeated indices:
/// the last write wins on the CPU, which one wins on a GPU is unspecified.
void put(const Array& a, const Array& ind, const Array& v, const std::string& mode = "raise");
/// a.flat[i] = values.flat[i % values.size] wherever mask.flat[i] (mask of a's size).
void putmask(const Array& a, const Array& mask, const Array& values);

}  // namespace loom
