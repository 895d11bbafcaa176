// The Array API standard's data type queries on loom's dtypes: finfo, iinfo, can_cast and
// isdtype (NumPy's answers; bfloat16's are ml_dtypes').
#pragma once
#include <cstdint>
#include <string>

#include "loom/core/dtype.h"

namespace loom {

/// Machine limits of a floating-point dtype (numpy.finfo). For a complex dtype they are
/// those of its parts, and `dtype` is the parts' dtype, as NumPy and the standard say.
struct FloatInfo {
  DType dtype;
  int bits;
  double eps;              // the gap between 1 and the next larger value
  double max;              // the largest finite value
  double min;              // -max
  double smallest_normal;  // the smallest positive normal value (NumPy's `tiny`)
  int precision;           // decimal digits that survive a round trip (NumPy's)
  double resolution;       // 10 ** -precision
};
/// DTypeError ("[finfo] ...") for a dtype that is not floating or complex.
FloatInfo finfo(DType dt);

/// Range of an integer dtype (numpy.iinfo): min as int64, max as uint64 (uint64's max).
struct IntInfo {
  DType dtype;
  int bits;
  int64_t min;
  uint64_t max;
};
/// DTypeError ("[iinfo] ...") for a dtype that is not an integer.
IntInfo iinfo(DType dt);

/// NumPy's casting levels of numpy.can_cast.
enum class Casting : uint8_t { no, equiv, safe, same_kind, unsafe };
/// "no", "equiv", "safe", "same_kind" or "unsafe"; std::invalid_argument naming `op` else.
Casting casting_from_name(const std::string& name, const char* op = "can_cast");
/// The level's NumPy name ("same_kind", ...), for messages.
const char* casting_name(Casting casting);
/// numpy.can_cast(from, to, casting). `safe`: every value of `from` is a value of `to`,
/// that is, promotion of the two gives `to` (the standard's can_cast).
bool can_cast(DType from, DType to, Casting casting = Casting::safe);

/// The standard's isdtype for a kind name: "bool", "signed integer", "unsigned integer",
/// "integral", "real floating", "complex floating" or "numeric". float16 and bfloat16 are
/// real floating. std::invalid_argument ("[isdtype] ...") for another name.
bool isdtype(DType dt, const std::string& kind);

}  // namespace loom
