#pragma once
// Text that came from outside (a result file's host names, attributes,
// column names) made safe to print on a terminal or in a one-line message:
// control characters are shown as C escapes (\n, \t, \x1b), so a host name
// cannot add lines to a report or send escape sequences to the terminal.
// Every printer of such text uses this one helper.
#include <cstddef>
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

// True when printable_text would change nothing (no control character, valid UTF-8).
bool is_printable_text(std::string_view text);

}  // namespace bws
