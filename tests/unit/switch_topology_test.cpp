// lib/model/SwitchTopology: Slurm's tree topology in both forms Slurm
// writes it (topology.conf, `scontrol show topology`), and one message per
// malformed input, naming the source and the line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/Errors.hpp"
#include "model/SwitchTopology.hpp"

using bws::UsageError;
using bws::model::SwitchTopology;

namespace {

const char* const kSource = "--links.topology topo.conf";

// The UsageError message of parsing `text`, "" when it parses.
std::string parse_error(const std::string& text) {
  try {
    SwitchTopology::parse(text, kSource);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(SwitchTopology, ReadsTopologyConfWithRangesCommentsAndOtherKeys) {
  const std::string text =
      "# two leaves under one top switch\n"
      "SwitchName=s1 Nodes=n[01-04] LinkSpeed=100\n"
      "\n"
      "  nodes=n[05-06],gpu7 switchname=s2   # keys in any case and order\n"
      "SwitchName=top Switches=s[1-2]\n";
  const SwitchTopology t = SwitchTopology::parse(text, kSource);
  EXPECT_EQ(t.switches(), (std::vector<std::string>{"s1", "s2", "top"}));
  EXPECT_EQ(t.leaf_of("n01"), "s1");
  EXPECT_EQ(t.leaf_of("n04"), "s1");
  EXPECT_EQ(t.leaf_of("n05"), "s2");
  EXPECT_EQ(t.leaf_of("gpu7"), "s2");
  EXPECT_EQ(t.leaf_of("n1"), "");  // zero padding is part of the name
  EXPECT_EQ(t.leaf_of("n07"), "");
  EXPECT_EQ(t.parent_of("s1"), "top");
  EXPECT_EQ(t.parent_of("top"), "");
  EXPECT_EQ(t.uplink_of("s2"), "s2->top");
  EXPECT_EQ(t.uplink_of("top"), "");
  EXPECT_EQ(t.path_between("s1", "s2"), (std::vector<std::string>{"s1", "top", "s2"}));
  EXPECT_EQ(t.path_between("s2", "s2"), (std::vector<std::string>{"s2"}));
  EXPECT_TRUE(t.path_between("s1", "nowhere").empty());
}

TEST(SwitchTopology, ReadsScontrolOutputWhereUpperSwitchesListAllHostsBelow) {
  // `scontrol show topology` of a three-level tree: every upper switch
  // lists the hosts below it too; the leaf is the deepest switch.
  const std::string text =
      "SwitchName=s0 Level=0 LinkSpeed=1 Nodes=tux[0-1]\n"
      "SwitchName=s1 Level=0 LinkSpeed=1 Nodes=tux[2-3]\n"
      "SwitchName=s2 Level=0 LinkSpeed=1 Nodes=tux[4-5]\n"
      "SwitchName=m0 Level=1 LinkSpeed=1 Nodes=tux[0-3] Switches=s[0-1]\n"
      "SwitchName=m1 Level=1 LinkSpeed=1 Nodes=tux[4-5] Switches=s2\n"
      "SwitchName=top Level=2 LinkSpeed=1 Nodes=tux[0-5] Switches=m[0-1]\n";
  const SwitchTopology t = SwitchTopology::parse(text, "scontrol show topology");
  EXPECT_EQ(t.leaf_of("tux0"), "s0");
  EXPECT_EQ(t.leaf_of("tux3"), "s1");
  EXPECT_EQ(t.leaf_of("tux5"), "s2");
  EXPECT_EQ(t.parent_of("s1"), "m0");
  EXPECT_EQ(t.parent_of("m1"), "top");
  EXPECT_EQ(t.path_between("s0", "s1"), (std::vector<std::string>{"s0", "m0", "s1"}));
  EXPECT_EQ(t.path_between("s1", "s2"), (std::vector<std::string>{"s1", "m0", "top", "m1", "s2"}));
}

TEST(SwitchTopology, ScontrolNullFieldsAreAbsent) {
  const SwitchTopology t =
      SwitchTopology::parse("SwitchName=s0 Level=0 LinkSpeed=1 Nodes=a[1-2] Switches=(null)\n", "scontrol");
  EXPECT_EQ(t.leaf_of("a2"), "s0");
  EXPECT_EQ(t.parent_of("s0"), "");
}

TEST(SwitchTopology, EmptyInputIsAnEmptyTopology) {
  EXPECT_TRUE(SwitchTopology::parse("# nothing\n\n", kSource).empty());
  EXPECT_EQ(SwitchTopology::parse("", kSource).leaf_of("n1"), "");
}

TEST(SwitchTopology, EachMalformedInputIsOneLineNamingSourceAndLine) {
  EXPECT_EQ(parse_error("SwitchName=s1 Nodes=n1\nNodes=n[2-3]\n"),
            "--links.topology topo.conf, line 2: no SwitchName=; allowed: one switch a line, SwitchName=NAME "
            "[Switches=LIST] [Nodes=LIST]");
  EXPECT_EQ(parse_error("SwitchName=a Nodes=n1\nSwitchName=b Nodes=n2\nSwitchName=p Switches=a\n"
                        "SwitchName=q Switches=a,b\n"),
            "--links.topology topo.conf, line 4: switch 'a' is under two parents, 'p' (line 3) and 'q'; "
            "allowed: a tree, one parent per switch");
  EXPECT_EQ(parse_error("SwitchName=a Nodes=n[1-2]\n# comment\nSwitchName=b Nodes=n[2-3]\n"),
            "--links.topology topo.conf, line 3: host 'n2' is under two leaf switches, 'a' (line 1) and 'b'; "
            "allowed: one leaf per host");
  EXPECT_EQ(parse_error("SwitchName=a Switches=b\nSwitchName=b Switches=c\nSwitchName=c Switches=a\n"),
            "--links.topology topo.conf, line 3: switch 'a' is its own ancestor (a cycle in Switches=); allowed: "
            "a tree");
  EXPECT_EQ(parse_error("SwitchName=a Switches=a\n"),
            "--links.topology topo.conf, line 1: switch 'a' is its own ancestor (a cycle in Switches=); allowed: "
            "a tree");
  EXPECT_EQ(parse_error("SwitchName=s1 Nodes=n1\nSwitchName=top Switches=s[1-2]\n"),
            "--links.topology topo.conf, line 2: Switches= names 's2', which no line defines; allowed: switches "
            "defined with SwitchName=");
  EXPECT_EQ(parse_error("SwitchName=s1 Nodes=n1\nSwitchName=s1 Nodes=n2\n"),
            "--links.topology topo.conf, line 2: switch 's1' is defined twice (first on line 1); allowed: one line "
            "per switch");
  EXPECT_EQ(parse_error("SwitchName=s1 Nodes=n[1-\n").rfind("--links.topology topo.conf, line 1: ", 0), 0u);
  EXPECT_EQ(parse_error("SwitchName=s1 fast\n"),
            "--links.topology topo.conf, line 1: 'fast' is not KEY=VALUE; allowed: SwitchName=NAME "
            "[Switches=LIST] [Nodes=LIST] and other KEY=VALUE fields");
  EXPECT_EQ(parse_error("SwitchName= Nodes=n1\n"),
            "--links.topology topo.conf, line 1: SwitchName= has no value; allowed: a switch name");
}

TEST(SwitchTopology, ALongBadLineIsNotEchoedWhole) {
  const std::string message = parse_error("SwitchName=s1 Nodes=n1 " + std::string(5000, 'x') + "\n");
  EXPECT_NE(message, "");
  EXPECT_LT(message.size(), 700u);
  EXPECT_EQ(message.find('\n'), std::string::npos);
}
