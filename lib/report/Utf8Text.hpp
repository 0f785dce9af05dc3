#pragma once
// Text for outputs that other programs parse (JSON, CSV): always valid
// UTF-8. A table's text comes from a file and may hold any byte (a host name
// with 0xff); a JSON parser refuses such a file whole. The rule is
// printable_text's: valid UTF-8 is kept as it is, every byte that is not
// part of a valid UTF-8 sequence becomes the four characters \xNN (0xff ->
// "\xff", in JSON the string "\\xff"). Documented in docs/hdf5-schema.md
// ("Exports").
#include <cstddef>
#include <string>
#include <string_view>

namespace bws::report {

// Length of the valid UTF-8 sequence at text[i] (1 to 4), 0 when the bytes
// there are none (overlong forms, surrogates, beyond U+10FFFF, cut short).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i);

// The text with every byte outside a valid UTF-8 sequence as \xNN.
std::string with_utf8_escapes(std::string_view text);

}  // namespace bws::report
