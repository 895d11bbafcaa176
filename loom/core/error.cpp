#include "loom/core/error.h"

namespace loom {

void throw_value_error(const char* op, const std::string& msg) {
  throw std::invalid_argument(std::string("[") + op + "] " + msg);
}

void throw_dtype_error(const char* op, const std::string& msg) {
  throw DTypeError(std::string("[") + op + "] " + msg);
}

}  // namespace loom
