#pragma once
// The programs the unit tests run. Their paths are the build folder's, so
// they are compiled into one file (TestPrograms.cpp) only: every other test
// file stays the same whatever folder it is built in (a compiler cache
// reuses it across clones).
namespace bws::test {

const char* bwsurvey_program();
const char* bwreport_program();
const char* mpiexec_program();

}  // namespace bws::test
