#pragma once
// Helpers shared by the unit tests.
#include <functional>
#include <string>

#include "core/Errors.hpp"

namespace bws::test {

// The message of the UsageError `action` throws, or "(no UsageError)".
inline std::string usage_error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const UsageError& error) {
    return error.what();
  }
  return "(no UsageError)";
}

}  // namespace bws::test
