#pragma once

#include <string>

// Where the tests find the checkout, the build and the configuration they run against.
//
// They are compiled into one unit (test_paths.cpp) and not given to every test unit as `-D`
// values: a compile command that names the checkout differs in every clone, so a compiler cache
// could not serve a test unit to a clone of the same commit in another folder (CI's clean clone).
namespace amazons::test {

// The source checkout, e.g. for scripts/ and the data under tests/.
const std::string& source_dir();
// The build folder of this preset, where the programs under test are.
const std::string& binary_dir();
// The configuration folder the programs read by default (config/ of the checkout).
const std::string& config_dir();

}  // namespace amazons::test
