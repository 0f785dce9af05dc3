// The one helper every printer of text from a file uses,
// and a file table's typed access: expected texts written out by hand.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include <gtest/gtest.h>

#include "TestSupport.hpp"

#include "core/Errors.hpp"
#include "core/PrintableText.hpp"
#include "core/Table.hpp"

using bws::printable_text;

TEST(PrintableText, EscapesControlCharactersAndKeepsUtf8) {
  EXPECT_EQ(printable_text("n1"), "n1");
  EXPECT_EQ(printable_text("n1\nFAKE\r\t"), "n1\\nFAKE\\r\\t");
  EXPECT_EQ(printable_text("\x1b[31mred\x07\x7f"), "\\x1b[31mred\\x07\\x7f");
  EXPECT_EQ(printable_text(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable_text("caf\xc3\xa9 \xe4\xb8\xad $x"), "caf\xc3\xa9 \xe4\xb8\xad $x");  // valid UTF-8 stays
  EXPECT_EQ(printable_text("bad \xff\xc3("), "bad \\xff\\xc3(");                          // invalid bytes escaped
  EXPECT_EQ(printable_text("\xed\xa0\x80"), "\\xed\\xa0\\x80");                             // a surrogate
  EXPECT_EQ(printable_text("a\\nb"), "a\\nb");  // a backslash stays: applying it twice changes nothing
  EXPECT_EQ(printable_text(printable_text("x\ny")), "x\\ny");
}

TEST(PrintableText, CutsLongTextAtACharacterBoundary) {
  EXPECT_EQ(printable_text(std::string(100, 'a'), 10), "aaaaaaa...");
  EXPECT_EQ(printable_text("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 7), "\xc3\xa9\xc3\xa9...");
  EXPECT_EQ(printable_text("\n\n\n\n", 7), "\\n\\n...");
  EXPECT_EQ(printable_text("short", 10), "short");
}

TEST(PrintableText, IsPrintableText) {
  EXPECT_TRUE(bws::is_printable_text("n1 \xc3\xa9"));
  EXPECT_FALSE(bws::is_printable_text("n1\n"));
  EXPECT_FALSE(bws::is_printable_text("\xff"));
}

TEST(FileTable, AMistypedOrMissingColumnIsABadInputFile) {
  bws::Table t("flags", {bws::text_column("host", 16), bws::text_column("value", 16)});
  t.add_row({{"host", "n1"}, {"value", "fast"}});
  // Built here: a programming error.
  EXPECT_THROW((void)t.get_double(0, "value"), std::logic_error);
  EXPECT_THROW((void)t.get_int(0, "nope"), std::out_of_range);
  t.set_source("s.h5");
  try {
    (void)t.get_double(0, "value");
    FAIL() << "no exception";
  } catch (const bws::UsageError& e) {
    EXPECT_STREQ(e.what(), "'s.h5': table '/flags': column 'value' holds text where numbers belong (see docs/hdf5-schema.md)");
  }
  try {
    (void)t.get_int(0, "cores\n");
    FAIL() << "no exception";
  } catch (const bws::UsageError& e) {
    EXPECT_STREQ(e.what(), "'s.h5': table '/flags' has no column 'cores\\n' (see docs/hdf5-schema.md)");
  }
  EXPECT_EQ(t.get_string(0, "host"), "n1");
}

TEST(FileTable, WithPrintableTextEscapesEveryTextCell) {
  bws::Table t("flags", {bws::text_column("host", 16), bws::real_column("value")});
  t.add_row({{"host", "n1\x1b"}, {"value", 2.5}});
  const bws::Table shown = bws::with_printable_text(t);
  EXPECT_EQ(shown.get_string(0, "host"), "n1\\x1b");
  EXPECT_EQ(shown.get_double(0, "value"), 2.5);
}

TEST(TerminalText, KeepsLinesAndTabsAndEscapesEverythingElse) {
  EXPECT_EQ(bws::terminal_text("a\tb\nc\x1b[2J\r\xff\n"), "a\tb\nc\\x1b[2J\\r\\xff\n");
  EXPECT_EQ(bws::terminal_text("gr\xc3\xbc\xc3\x9f"), "gr\xc3\xbc\xc3\x9f");  // UTF-8 stays
}

// The filter on the standard streams, run in a child so this process's
// streams stay as they are: what a printer forgot to escape is escaped,
// text written in pieces comes out as one line, and the last line without a
// line break still comes out at exit.
TEST(TerminalText, TheGuardedStreamsEscapeWhateverIsPrinted) {
  const std::string out = ::testing::TempDir() + "guarded-stdout.txt";
  std::fflush(nullptr);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!std::freopen(out.c_str(), "w", stdout)) std::_Exit(3);
    bws::guard_terminal_streams();
    std::cout << "host \x1b]0;owned\x07 " << "gr\xc3\xbc\xc3\x9f\n" << "last";
    std::exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(bws::test::slurp(out), "host \\x1b]0;owned\\x07 gr\xc3\xbc\xc3\x9f\nlast");
}
