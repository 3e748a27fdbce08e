#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "common/number_text.h"

using namespace amazons;

TEST_CASE("numbers are read whole, as from_chars reads them, by both readers") {
  struct Case {
    std::string text;
    std::optional<double> value;  // nullopt: refused
  };
  const Case cases[] = {
      {"0", 0.0},
      {"1", 1.0},
      {"-2.5", -2.5},
      {"0.001", 0.001},
      {"1e3", 1000.0},
      {"2.5E-2", 0.025},
      {".5", 0.5},
      {"5.", 5.0},
      {"", std::nullopt},
      {"+1", std::nullopt},
      {" 1", std::nullopt},
      {"1 ", std::nullopt},
      {"1x", std::nullopt},
      {"0x10", std::nullopt},
      {"1e", std::nullopt},
      {"-", std::nullopt},
      {"1e999", std::nullopt},
      {"abc", std::nullopt},
      {"1,5", std::nullopt},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    CHECK(double_from_text(c.text) == c.value);
    CHECK(double_from_text_strtod(c.text) == c.value);
  }
  // "inf" and "nan" are numbers to both; callers refuse them where they mean nothing.
  for (const auto read : {double_from_text, double_from_text_strtod}) {
    REQUIRE(read("inf"));
    CHECK(std::isinf(*read("inf")));
    REQUIRE(read("nan"));
    CHECK(std::isnan(*read("nan")));
  }
}
