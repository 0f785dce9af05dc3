#pragma once
// The error classes and exit codes (docs/design-notes.md, "Errors and
// exit codes"): a usage error is the user's
// to fix (exit 2, one line naming the option), a runtime failure is the
// machine's (exit 1), a failed model check is exit 3.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace bws {

enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,      // a result did not validate, or a runtime error
  kExitUsage = 2,        // bad option, size, file: nothing was measured
  kExitCheckFailed = 3,  // a model or scaling check failed
};

// The longest message an error carries (characters).
inline constexpr std::size_t kMaxErrorMessageChars = 600;

// An error message as it may be printed: one line (line breaks and tabs
// become spaces, other control characters '?'), and never longer than
// kMaxErrorMessageChars: a longer one keeps its start (the option) and its
// end (the allowed range) around " ... ". Every message passes here, so no
// input, however it got into a message, prints kilobytes or several lines.
inline std::string one_line_message(std::string text) {
  for (char& c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f') c = ' ';
    else if (u < 0x20 || u == 0x7f) c = '?';
  }
  if (text.size() <= kMaxErrorMessageChars) return text;
  // Cut at UTF-8 character boundaries (never before a continuation byte).
  auto boundary = [&](std::size_t i) {
    while (i > 0 && i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) --i;
    return i;
  };
  const std::size_t head = boundary(kMaxErrorMessageChars / 2);
  const std::size_t tail = boundary(text.size() - kMaxErrorMessageChars / 2 + 10);
  return text.substr(0, head) + " ... " + text.substr(tail);
}

// Bad input: the message names the option and the allowed range.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(one_line_message(message)) {}
  explicit UsageError(const char* message) : UsageError(std::string(message)) {}
};

// Something failed while measuring (allocation, a system call, a rank).
class RuntimeFailure : public std::runtime_error {
 public:
  explicit RuntimeFailure(const std::string& message) : std::runtime_error(one_line_message(message)) {}
  explicit RuntimeFailure(const char* message) : RuntimeFailure(std::string(message)) {}
};

}  // namespace bws
