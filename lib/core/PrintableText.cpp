#include "core/PrintableText.hpp"

#include <cstdio>
#include <iostream>
#include <streambuf>

#include "core/Table.hpp"

namespace bws {

// Length of the valid UTF-8 sequence starting at text[i] (1 to 4), or 0
// when the bytes there are not one (overlong forms and surrogates included).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned min_second = 0x80, max_second = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) min_second = 0xA0;  // overlong
    if (lead == 0xED) max_second = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) min_second = 0x90;  // overlong
    if (lead == 0xF4) max_second = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < min_second || byte(i + 1) > max_second) return 0;
  for (std::size_t k = 2; k < length; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  return length;
}

namespace {

bool is_control(unsigned char c) { return c < 0x20 || c == 0x7F; }

// The escape of one byte that is shown escaped.
std::string escaped(unsigned char c) {
  switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      return buf;
    }
  }
}

}  // namespace

namespace {

// printable_text's loop; `keep` says which control bytes pass as they are.
std::string escape_text(std::string_view text, std::size_t max_bytes, bool (*keep)(unsigned char)) {
  std::string out;
  out.reserve(text.size() < 256 ? text.size() : 256);
  static constexpr std::string_view kCut = "...";
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    const auto lead = static_cast<unsigned char>(text[i]);
    const bool plain = length > 1 || (length == 1 && (!is_control(lead) || keep(lead)));
    const std::string piece = plain ? std::string(text.substr(i, length)) : escaped(static_cast<unsigned char>(text[i]));
    if (max_bytes != kPrintableUnlimited && out.size() + piece.size() > max_bytes) {
      // Room for the "..." marker: drop whole pieces from the end if needed.
      while (!out.empty() && out.size() + kCut.size() > max_bytes) {
        std::size_t back = out.size() - 1;
        while (back > 0 && (static_cast<unsigned char>(out[back]) & 0xC0) == 0x80) --back;
        out.resize(back);
      }
      return out + std::string(kCut.substr(0, max_bytes < kCut.size() ? max_bytes : kCut.size()));
    }
    out += piece;
    i += plain ? length : 1;
  }
  return out;
}

bool keep_none(unsigned char) { return false; }
bool keep_line_breaks(unsigned char c) { return c == '\n' || c == '\t'; }
bool keep_controls(unsigned char) { return true; }

}  // namespace

std::string printable_text(std::string_view text, std::size_t max_bytes) {
  return escape_text(text, max_bytes, keep_none);
}

std::string terminal_text(std::string_view text) { return escape_text(text, kPrintableUnlimited, keep_line_breaks); }

std::string with_utf8_escapes(std::string_view text) { return escape_text(text, kPrintableUnlimited, keep_controls); }

TerminalTextBuffer::~TerminalTextBuffer() {
  const std::lock_guard<std::mutex> hold(mutex_);
  emit();
}

TerminalTextBuffer::int_type TerminalTextBuffer::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
}

std::streamsize TerminalTextBuffer::xsputn(const char* s, std::streamsize n) {
  const std::lock_guard<std::mutex> hold(mutex_);
  pending_.append(s, static_cast<std::size_t>(n));
  const auto last_line_end = pending_.rfind('\n');
  if (pending_.size() >= kMaxPendingBytes) {
    emit();
  } else if (last_line_end != std::string::npos) {
    const std::string text = terminal_text(std::string_view(pending_).substr(0, last_line_end + 1));
    target_->sputn(text.data(), static_cast<std::streamsize>(text.size()));
    pending_.erase(0, last_line_end + 1);
  }
  return n;
}

int TerminalTextBuffer::sync() {
  const std::lock_guard<std::mutex> hold(mutex_);
  emit();
  return target_->pubsync();
}

void TerminalTextBuffer::emit() {
  if (pending_.empty()) return;
  const std::string text = terminal_text(pending_);
  target_->sputn(text.data(), static_cast<std::streamsize>(text.size()));
  pending_.clear();
}

void guard_terminal_streams() {
  // Never destroyed: the streams flush at exit, after static objects go.
  static auto* const out = new TerminalTextBuffer(std::cout.rdbuf());
  static auto* const err = new TerminalTextBuffer(std::cerr.rdbuf());
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);
}

Table with_printable_text(Table table) {
  const std::vector<Column>& columns = table.columns();
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].type != ColumnType::String) continue;
    for (std::size_t r = 0; r < table.rows(); ++r) {
      const std::string& text = table.row(r)[c].as_string();
      if (!is_printable_text(text)) table.set(r, columns[c].name, Value(printable_text(text)));
    }
  }
  return table;
}

bool is_printable_text(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0 || (length == 1 && is_control(static_cast<unsigned char>(text[i])))) return false;
    i += length;
  }
  return true;
}

}  // namespace bws
