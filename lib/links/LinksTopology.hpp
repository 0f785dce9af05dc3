#pragma once
// Where the link map's switch tree comes from: --links.topology FILE
// (parsed on every rank at plan time, so a bad file is a usage error
// everywhere), else, inside a Slurm job, `scontrol show topology` run on
// world rank 0 only (10,000 ranks asking slurmctld at once would load it);
// when scontrol fails or knows no tree ("No switches found", nothing), no
// tree: node and pair verdicts only.
#include <memory>
#include <string>

#include "model/SwitchTopology.hpp"

namespace bws::links {

struct LinksTopology {
  std::shared_ptr<const model::SwitchTopology> tree;  // null: no switch tree
  std::string source;  // for the plan line: "topology: FILE (2 leaves)", "no switch tree"
};

// The file's tree; UsageError naming `flag` when it cannot be read or parsed.
LinksTopology topology_from_file(const std::string& flag, const std::string& path);
// scontrol's tree when SLURM_JOB_ID is set and scontrol is on PATH; else,
// or when it fails or prints no tree, none (never an error).
LinksTopology topology_from_scontrol();
// scontrol's output read as a tree: none for "No switches found", an
// empty or unparseable text. Pure.
LinksTopology topology_from_scontrol_text(const std::string& text, bool succeeded);

}  // namespace bws::links
