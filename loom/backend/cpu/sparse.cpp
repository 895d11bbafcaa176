// CPU eval of the sparse family (backend/sparse.h). A @ x: rows over the thread pool, each
// output row a dot of its stored values with x's rows, summed in storage order (so the
// result does not depend on thread timing), each row's structure checked as it is read.
// A^T @ x scatters row i's values into the output rows their columns name: the threads
// split x's columns when there are several, else the matrix's rows, each into a private
// output summed in thread order afterwards.
#include "loom/backend/sparse.h"

#include <algorithm>
#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "loom/core/cast.h"
#include "loom/runtime/cpu/thread_pool.h"

namespace loom::cpu_backend {
namespace {

// Sums accumulate in double (complex128 for complex64): a long row loses no float bits. A
// float32 product is rounded to float once before it is added (widening both factors made the
// SpMV 1.45x slower on one thread): a term carries one float rounding and the sum none, where
// SciPy's float sums round at every term.
template <class T> struct Wide { using type = double; };
template <> struct Wide<complex64_t> { using type = complex128_t; };
template <> struct Wide<complex128_t> { using type = complex128_t; };
template <class T> using acc_t = typename Wide<T>::type;

inline double mul_acc(double a, float b, float c) { return a + static_cast<double>(b * c); }
inline double mul_acc(double a, double b, double c) { return a + b * c; }
inline complex128_t mul_acc(complex128_t a, complex64_t b, complex64_t c) {
  return {a.re + static_cast<double>(b.re) * c.re - static_cast<double>(b.im) * c.im,
          a.im + static_cast<double>(b.re) * c.im + static_cast<double>(b.im) * c.re};
}
inline complex128_t mul_acc(complex128_t a, complex128_t b, complex128_t c) {
  return {a.re + b.re * c.re - b.im * c.im, a.im + b.re * c.im + b.im * c.re};
}
inline double add_acc(double a, double b) { return a + b; }
inline complex128_t add_acc(complex128_t a, complex128_t b) { return {a.re + b.re, a.im + b.im}; }
inline float to_value(double v, float*) { return static_cast<float>(v); }
inline double to_value(double v, double*) { return v; }
inline complex64_t to_value(complex128_t v, complex64_t*) {
  return {static_cast<float>(v.re), static_cast<float>(v.im)};
}
inline complex128_t to_value(complex128_t v, complex128_t*) { return v; }

// A row's stored positions [begin, end) and whether its columns are inside [0, cols): the
// structure is checked as the product reads it (a separate pass over every index cost as
// much as the product); a bad row is skipped and reported afterwards.
template <class I>
bool row_ok(const I* indices, const I* indptr, int64_t r, int64_t cols, int64_t nnz) {
  const int64_t b = indptr[r], e = indptr[r + 1];
  if (e < b || b < 0 || e > nnz) return false;
  for (int64_t p = b; p < e; ++p)
    if (indices[p] < 0 || indices[p] >= cols) return false;
  return true;
}

template <class T, class I>
void matmul(const T* data, const I* indices, const I* indptr, const T* x, int64_t rows, int64_t cols, int64_t nnz,
            int64_t k, T* out, std::atomic<bool>& bad) {
  if (k == 1) {  // SpMV: one accumulator in a register per row
    cpu_runtime::parallel_for(rows, 4096, [&, data, indices, indptr, x, out](int64_t b, int64_t e) {
      // One pass per row that checks each column as it reads it: the check's branch is never
      // taken on a good matrix, where a second loop over the row (row_ok) costs a mispredicted
      // exit per row (2.2x SciPy's time for a 5-point Poisson matrix on one thread).
      const T* __restrict dp = data;
      const I* __restrict ip = indices;
      const I* __restrict rp = indptr;
      const T* __restrict xp = x;
      const auto ucols = static_cast<uint64_t>(cols);
      bool any_bad = false;  // published once: a store to the shared flag per row would
                             // make the compiler reload every captured pointer
      for (int64_t r = b; r < e; ++r) {
        const int64_t pb = rp[r], pe = rp[r + 1];
        if (pe < pb || pb < 0 || pe > nnz) {
          any_bad = true;
          continue;
        }
        acc_t<T> s{};
        int64_t p = pb;
        for (; p < pe; ++p) {
          const int64_t c = ip[p];
          if (static_cast<uint64_t>(c) >= ucols) break;
          s = mul_acc(s, dp[p], xp[c]);
        }
        if (p != pe) any_bad = true;
        else out[r] = to_value(s, static_cast<T*>(nullptr));
      }
      if (any_bad) bad = true;
    });
    return;
  }
  cpu_runtime::parallel_for(rows, std::max<int64_t>(1, 4096 / std::max<int64_t>(k, 1)), [&](int64_t b, int64_t e) {
    std::vector<acc_t<T>> acc(static_cast<size_t>(k));
    for (int64_t r = b; r < e; ++r) {
      if (!row_ok(indices, indptr, r, cols, nnz)) {
        bad = true;
        continue;
      }
      std::fill(acc.begin(), acc.end(), acc_t<T>{});
      for (I p = indptr[r]; p < indptr[r + 1]; ++p) {
        const T v = data[p];
        const T* xr = x + static_cast<int64_t>(indices[p]) * k;
        for (int64_t c = 0; c < k; ++c) acc[static_cast<size_t>(c)] = mul_acc(acc[static_cast<size_t>(c)], v, xr[c]);
      }
      for (int64_t c = 0; c < k; ++c) out[r * k + c] = to_value(acc[static_cast<size_t>(c)], static_cast<T*>(nullptr));
    }
  });
}

// out (cols x k) = A^T x: row r of A adds data[p] * x[r, :] into out[indices[p], :].
template <class T, class I>
void matmul_t(const T* data, const I* indices, const I* indptr, const T* x, int64_t rows, int64_t cols, int64_t k,
              T* out) {
  // One private output per part: at most 2^26 accumulators together.
  int64_t parts = std::min<int64_t>(cpu_runtime::num_threads(), std::max<int64_t>(1, rows / 1024));
  parts = std::max<int64_t>(1, std::min<int64_t>(parts, (int64_t{1} << 26) / std::max<int64_t>(1, cols * k)));
  std::vector<acc_t<T>> acc(static_cast<size_t>(parts * cols * k), acc_t<T>{});
  cpu_runtime::parallel_for(parts, 1, [&](int64_t pb, int64_t pe) {
    for (int64_t part = pb; part < pe; ++part) {
      acc_t<T>* o = acc.data() + part * cols * k;
      for (int64_t r = rows * part / parts; r < rows * (part + 1) / parts; ++r)
        for (I p = indptr[r]; p < indptr[r + 1]; ++p) {
          acc_t<T>* orow = o + static_cast<int64_t>(indices[p]) * k;
          for (int64_t c = 0; c < k; ++c) orow[c] = mul_acc(orow[c], data[p], x[r * k + c]);
        }
    }
  });
  for (int64_t i = 0; i < cols * k; ++i) {
    acc_t<T> s = acc[static_cast<size_t>(i)];
    for (int64_t part = 1; part < parts; ++part) {
      s = add_acc(s, acc[static_cast<size_t>(part * cols * k + i)]);
    }
    out[i] = to_value(s, static_cast<T*>(nullptr));
  }
}

// The structure's values, read here because a bad one would address memory outside x or out
// (cuSPARSE does not check either; on a GPU the Python classes' check_format does): row
// starts from 0 to nnz, nondecreasing, and columns inside [0, cols).
template <class I>
void check_structure(const I* ind, const I* ptr, int64_t rows, int64_t cols, int64_t nnz) {
  if (ptr[0] != 0 || ptr[rows] != nnz)
    throw std::invalid_argument("[csr_matmul] indptr must start at 0 and end at the number of stored values (" +
                                std::to_string(nnz) + "), not run from " + std::to_string(ptr[0]) + " to " +
                                std::to_string(ptr[rows]));
  for (int64_t r = 0; r < rows; ++r)
    if (ptr[r + 1] < ptr[r])
      throw std::invalid_argument("[csr_matmul] indptr decreases at row " + std::to_string(r));
  for (int64_t p = 0; p < nnz; ++p)
    if (ind[p] < 0 || ind[p] >= cols)
      throw std::out_of_range("[csr_matmul] column index " + std::to_string(static_cast<int64_t>(ind[p])) +
                              " (stored value " + std::to_string(p) + ") is out of range for " +
                              std::to_string(cols) + " columns");
}

template <class T, class I>
void run(const Array& data, const Array& indices, const Array& indptr, const Array& x, bool transpose, const Array& out) {
  const T* d = static_cast<const T*>(data.data());
  const I* ind = static_cast<const I*>(indices.data());
  const I* ptr = static_cast<const I*>(indptr.data());
  const int64_t rows = transpose ? x.shape()[0] : out.shape()[0], cols = transpose ? out.shape()[0] : x.shape()[0];
  const T* xp = static_cast<const T*>(x.data());
  T* o = static_cast<T*>(out.data());
  const int64_t k = x.shape()[1];
  if (transpose) {
    check_structure(ind, ptr, rows, cols, data.size());  // the scatter has no row to skip
    matmul_t(d, ind, ptr, xp, x.shape()[0], out.shape()[0], k, o);
    return;
  }
  std::atomic<bool> bad{false};
  if (rows > 0 && ptr[0] != 0) bad = true;
  else matmul(d, ind, ptr, xp, rows, cols, data.size(), k, o, bad);
  if (bad || (rows > 0 && ptr[rows] != data.size())) check_structure(ind, ptr, rows, cols, data.size());  // raises
}

template <class T>
void run_index(const Array& data, const Array& indices, const Array& indptr, const Array& x, bool transpose,
               const Array& out) {
  if (indices.dtype() == DType::int32) run<T, int32_t>(data, indices, indptr, x, transpose, out);
  else run<T, int64_t>(data, indices, indptr, x, transpose, out);
}

}  // namespace

void csr_matmul(const Array& data, const Array& indices, const Array& indptr, const Array& x, bool transpose,
                const Array& out) {
  switch (data.dtype()) {
    case DType::float32: return run_index<float>(data, indices, indptr, x, transpose, out);
    case DType::float64: return run_index<double>(data, indices, indptr, x, transpose, out);
    case DType::complex64: return run_index<complex64_t>(data, indices, indptr, x, transpose, out);
    default: return run_index<complex128_t>(data, indices, indptr, x, transpose, out);
  }
}

}  // namespace loom::cpu_backend
