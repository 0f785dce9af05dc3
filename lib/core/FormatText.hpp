#pragma once
// printf-style text as a std::string, whatever its length: one place for
// what files wrote as a fixed char buffer and std::snprintf, which cut the
// text where the buffer ended. The compiler checks the format against the
// arguments (the printf attribute), as it did for snprintf.
#include <string>

namespace bws {

[[gnu::format(printf, 1, 2)]] std::string format_text(const char* format, ...);

}  // namespace bws
