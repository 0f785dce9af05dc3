#pragma once
// Whether two paths name one file: the same device and inode when both
// exist (so another spelling, a symbolic or a hard link are caught), else
// the same absolute path once the links of its existing part are resolved.
// Used so that no output ever replaces an input.
#include <string>

namespace bws {

bool same_file(const std::string& a, const std::string& b);

}  // namespace bws
