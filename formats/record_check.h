// The last check of every reader: the record a reader built holds everything a record read from
// our own forms must (the result agrees with the final position, the variant is valid, ...).
#pragma once

#include <string>

#include "common/expected.h"
#include "common/game_record.h"

namespace amazons::formats {

Expected<GameRecord, std::string> checked(GameRecord record);

}  // namespace amazons::formats
