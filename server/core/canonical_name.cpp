#include "server/core/canonical_name.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>

#include <memory>

namespace amazons::server {

namespace {

struct SpoofCloser {
  void operator()(USpoofChecker* c) const { uspoof_close(c); }
};

// One checker, built once: ICU documents a USpoofChecker as safe to share between threads once
// configured, and building it loads the confusables table.
const USpoofChecker* spoof_checker() {
  static const std::unique_ptr<USpoofChecker, SpoofCloser> checker = [] {
    UErrorCode status = U_ZERO_ERROR;
    std::unique_ptr<USpoofChecker, SpoofCloser> c(uspoof_open(&status));
    return U_SUCCESS(status) ? std::move(c) : nullptr;
  }();
  return checker.get();
}

bool valid_utf8(std::string_view s) {
  const icu::UnicodeString u =
      icu::UnicodeString::fromUTF8(icu::StringPiece(s.data(), static_cast<int32_t>(s.size())));
  std::string back;
  u.toUTF8String(back);
  return back == s;
}

}  // namespace

std::string canonical_name(std::string_view name) {
  if (!valid_utf8(name)) return std::string(name);
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(status);
  const USpoofChecker* spoof = spoof_checker();
  if (U_FAILURE(status) || !spoof) return std::string(name);

  icu::UnicodeString s = nfkc->normalize(icu::UnicodeString::fromUTF8(icu::StringPiece(
                                             name.data(), static_cast<int32_t>(name.size()))),
                                         status);
  // Trailing punctuation: "REG." is "reg". A name of punctuation only keeps it, or every such
  // name would be one.
  int32_t end = s.length();
  while (end > 0 && u_ispunct(s.char32At(s.moveIndex32(end, -1)))) end = s.moveIndex32(end, -1);
  if (end > 0) s.truncate(end);
  s.foldCase();
  // Folded first, so that a name is one name in any case; folded again, since the skeleton maps
  // some characters to capitals ("0" -> "O").
  icu::UnicodeString out;
  uspoof_getSkeletonUnicodeString(spoof, 0, s, out, &status);
  out.foldCase();
  out = nfkc->normalize(out, status);
  if (U_FAILURE(status)) return std::string(name);
  std::string utf8;
  out.toUTF8String(utf8);
  return utf8;
}

std::string look_alike_message(const std::string& other) {
  return "that name is too like \"" + other +
         "\", which is taken: names are compared without case, trailing punctuation or "
         "look-alike letters";
}

}  // namespace amazons::server
