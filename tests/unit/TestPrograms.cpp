#include "TestPrograms.hpp"

namespace bws::test {

const char* bwsurvey_program() { return BWS_BWSURVEY; }
const char* bwreport_program() { return BWS_BWREPORT; }
const char* mpiexec_program() { return BWS_MPIEXEC; }

}  // namespace bws::test
