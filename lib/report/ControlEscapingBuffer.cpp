#include "report/ControlEscapingBuffer.hpp"

#include <cstdio>

namespace bws::report {

bool passes_unescaped(char c) {
  const auto u = static_cast<unsigned char>(c);
  return c == '\n' || c == '\t' || (u >= 0x20 && u != 0x7f);
}

bool ControlEscapingBuffer::put(char c) {
  if (passes_unescaped(c)) return target_->sputc(c) != traits_type::eof();
  char escape[8];
  const int n = c == '\r' ? std::snprintf(escape, sizeof escape, "\\r")
                          : std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(c));
  return target_->sputn(escape, n) == n;
}

ControlEscapingBuffer::int_type ControlEscapingBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  return put(traits_type::to_char_type(c)) ? c : traits_type::eof();
}

std::streamsize ControlEscapingBuffer::xsputn(const char* s, std::streamsize n) {
  // Runs of plain text in one call: a large export to standard output
  // stays fast.
  std::streamsize done = 0;
  while (done < n) {
    std::streamsize run = 0;
    while (done + run < n && passes_unescaped(s[done + run])) ++run;
    if (run > 0 && target_->sputn(s + done, run) != run) return done;
    done += run;
    if (done < n) {
      if (!put(s[done])) return done;
      ++done;
    }
  }
  return done;
}

int ControlEscapingBuffer::sync() { return target_->pubsync(); }

}  // namespace bws::report
