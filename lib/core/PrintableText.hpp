#pragma once
// Text that came from outside (a result file's host names, attributes,
// column names) made safe to print on a terminal or in a one-line message:
// control characters are shown as C escapes (\n, \t, \x1b), so a host name
// cannot add lines to a report or send escape sequences to the terminal.
// Every printer of such text uses this one helper.
#include <cstddef>
#include <mutex>
#include <streambuf>
#include <string>
#include <string_view>

namespace bws {

// Escapes \n \r \t as such, other C0 controls, DEL and bytes that are not
// valid UTF-8 as \xNN; valid UTF-8 characters (including non-ASCII ones)
// and backslashes stay as they are. Longer results are cut to `max_bytes`
// (at a character boundary) and end with "...".
inline constexpr std::size_t kPrintableUnlimited = static_cast<std::size_t>(-1);
std::string printable_text(std::string_view text, std::size_t max_bytes = kPrintableUnlimited);

// The table with printable_text applied to every text cell (column names
// and units are left: printers name columns they know). For tables read from
// a file, before a report renders them.
class Table;
Table with_printable_text(Table table);

// printable_text that keeps line breaks and tabs: what may reach a terminal
// as a whole text (a summary, a table), not as a one-line field.
std::string terminal_text(std::string_view text);

// Every byte bwsurvey and bwreport write to standard output and error passes
// terminal_text from here on (whole lines, flushed as before): whatever a
// printer forgot to escape, no escape sequence or other control byte
// reaches the terminal. Called first in main(). Fields that must stay on one
// line (a host name in a table row) still go through printable_text.
void guard_terminal_streams();

// The filter guard_terminal_streams() puts on a stream, for a stream of its
// own (bwreport's commands print to one): text is passed on a whole line
// at a time through terminal_text, the rest on flush or destruction.
class TerminalTextBuffer : public std::streambuf {
 public:
  explicit TerminalTextBuffer(std::streambuf* target) : target_(target) {}
  ~TerminalTextBuffer() override;

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  static constexpr std::size_t kMaxPendingBytes = std::size_t{1} << 16;
  void emit();  // with mutex_ held
  std::streambuf* target_;
  std::string pending_;
  // Standard error is written from more than one thread (a watchdog's
  // message beside the main thread's): the C library's buffer this one
  // replaces was safe for that, so this one is too.
  std::mutex mutex_;
};

// Text for outputs other programs parse (JSON, CSV): valid UTF-8 is kept as
// it is, control characters included (the format escapes those); every byte
// that is not part of a valid UTF-8 sequence becomes the four characters
// \xNN, printable_text's rule (0xff -> "\xff"). Documented in
// docs/hdf5-schema.md ("Exports").
std::string with_utf8_escapes(std::string_view text);

// Length of the valid UTF-8 sequence at text[i] (1 to 4), 0 when the bytes
// there are none (overlong forms, surrogates, beyond U+10FFFF, cut short).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// True when printable_text would change nothing (no control character, valid UTF-8).
bool is_printable_text(std::string_view text);

}  // namespace bws
