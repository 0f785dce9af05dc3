#pragma once
// The last line of defence for what bwreport prints: a stream buffer that
// passes text on to another one with every control byte other than '\n'
// and '\t' escaped as printable_text escapes it ('\r' as \r, the others and
// DEL as \xNN). run_report_command() puts every command's standard output
// through it, so no command can send a raw escape sequence or carriage
// return to a terminal, even a printer that forgot printable_text (which
// every printer of file text still uses: it also bounds the length and
// escapes invalid UTF-8). Bytes 0x80 and above pass unchanged.
#include <streambuf>

namespace bws::report {

class ControlEscapingBuffer : public std::streambuf {
 public:
  explicit ControlEscapingBuffer(std::streambuf* target) : target_(target) {}

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  bool put(char c);
  std::streambuf* target_;
};

// Whether `c` is passed on as it is.
bool passes_unescaped(char c);

}  // namespace bws::report
