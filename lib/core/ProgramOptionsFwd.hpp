#pragma once
// Boost.Program_options' classes by name only, for headers that declare
// functions taking them by reference (a benchmark's add_options, a plan's
// add_*_options). <boost/program_options/options_description.hpp> brings
// Boost.Any, Function and shared_ptr, about 70,000 preprocessed lines,
// into every file that includes such a header; only the .cpp files that
// declare or read options include the real Boost headers.
namespace boost::program_options {
class options_description;
class variables_map;
}  // namespace boost::program_options
