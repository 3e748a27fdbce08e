#include "tests/test_paths.h"

namespace amazons::test {

const std::string& source_dir() {
  static const std::string dir = AMAZONS_SOURCE_DIR;
  return dir;
}

const std::string& binary_dir() {
  static const std::string dir = AMAZONS_BINARY_DIR;
  return dir;
}

const std::string& config_dir() {
  static const std::string dir = AMAZONS_CONFIG_DIR;
  return dir;
}

}  // namespace amazons::test
