// The 15 dtypes of loom, their sizes and names, and NumPy 2 type promotion.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace loom {

enum class DType : uint8_t {
  bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
  float16, bfloat16, float32, float64, complex64, complex128,
};
constexpr int kNumDTypes = 15;
/// The real dtypes are the first 13 (bool to float64): tables of ops without complex
/// support (PrimitiveInfo::complex) are this long.
constexpr int kNumRealDTypes = 13;

constexpr DType bool_ = DType::bool_;
constexpr DType int8 = DType::int8;
constexpr DType int16 = DType::int16;
constexpr DType int32 = DType::int32;
constexpr DType int64 = DType::int64;
constexpr DType uint8 = DType::uint8;
constexpr DType uint16 = DType::uint16;
constexpr DType uint32 = DType::uint32;
constexpr DType uint64 = DType::uint64;
constexpr DType float16 = DType::float16;
constexpr DType bfloat16 = DType::bfloat16;
constexpr DType float32 = DType::float32;
constexpr DType float64 = DType::float64;
constexpr DType complex64 = DType::complex64;
constexpr DType complex128 = DType::complex128;

enum class DTypeKind : uint8_t { boolean, signed_int, unsigned_int, floating, complex };

/// Size of one element in bytes.
size_t itemsize(DType dt);
/// NumPy's name: "float32", "bool", "bfloat16", ...
const char* dtype_name(DType dt);
/// Parses a NumPy-style name ("float32", "f4", "bool", "int", "float", "bfloat16"); throws DTypeError.
DType dtype_from_name(const std::string& name);
DTypeKind dtype_kind(DType dt);
/// Real floating point (float16, bfloat16, float32, float64); complex is not.
inline bool is_floating(DType dt) { return dtype_kind(dt) == DTypeKind::floating; }
inline bool is_complex(DType dt) { return dtype_kind(dt) == DTypeKind::complex; }
/// The dtype of a complex dtype's parts (complex64 -> float32); other dtypes unchanged.
constexpr DType real_dtype(DType dt) {
  return dt == DType::complex64 ? DType::float32 : dt == DType::complex128 ? DType::float64 : dt;
}
inline bool is_integer(DType dt) {
  auto k = dtype_kind(dt);
  return k == DTypeKind::signed_int || k == DTypeKind::unsigned_int;
}
/// The C/CUDA spelling used by code generators: "float", "__half", "unsigned char", ...
const char* dtype_c_name(DType dt);
/// NumPy 2 promotion of two array dtypes (np.result_type); bfloat16 follows ml_dtypes
/// (and meets complex in complex64, as float16 does).
DType promote_types(DType a, DType b);

}  // namespace loom
