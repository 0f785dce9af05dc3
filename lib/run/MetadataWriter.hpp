#pragma once
// Rank 0 writes what describes the run, as what it is: the root attributes
// and /provenance of a new file, a resume's own provenance, and metadata
// texts (the nodes' topology XML) as text datasets of their own.
#include <string>
#include <vector>

#include "h5/ResultFile.hpp"
#include "run/CommandLine.hpp"
#include "run/ResumeState.hpp"
#include "run/RunMetadata.hpp"
#include "run/RunWorld.hpp"

namespace bws::run {

// A new file's root attributes (tool, status "running", the tests, the
// test hooks in effect), its /config and its /provenance.
void write_run_attributes(h5::ResultFile& file, const CommandLine& cl, const RunWorld& world,
                          const std::vector<std::string>& tests);

// The resume's own provenance (resume_<n>_*); earlier runs' attributes stay.
void record_resume(h5::ResultFile& file, const CommandLine& cl, const ResumeState& state);

void write_metadata_text(h5::ResultFile& file, const MetadataText& text);

}  // namespace bws::run
