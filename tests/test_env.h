// Setting and removing an environment variable in a test, on POSIX and on Windows (where an
// empty value removes the variable: a test must not tell "empty" from "unset" apart there).
#pragma once

#include <cstdlib>
#include <string>

namespace amazons::test {

inline void set_env(const std::string& name, const std::string& value) {
#ifdef _WIN32
  _putenv_s(name.c_str(), value.c_str());
#else
  setenv(name.c_str(), value.c_str(), 1);
#endif
}

inline void unset_env(const std::string& name) {
#ifdef _WIN32
  _putenv_s(name.c_str(), "");
#else
  unsetenv(name.c_str());
#endif
}

}  // namespace amazons::test
