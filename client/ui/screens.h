// The client's screens. Each is made by one function; they navigate through App::show.
#pragma once

#include <memory>

#include "client/game_session.h"
#include "client/ui/app.h"

namespace amazons::client::ui {

std::unique_ptr<Screen> make_menu_screen(App& app);
// Two players at one screen: names, rule variant, time control.
std::unique_ptr<Screen> make_new_game_screen(App& app);
// Plays a game; `setup.game` may hold moves to resume. On failure returns to the menu with a
// notice.
std::unique_ptr<Screen> make_game_screen(App& app, SessionSetup setup);
std::unique_ptr<Screen> make_replay_list_screen(App& app);
// Steps through a finished game; Back returns to the saved-games list.
std::unique_ptr<Screen> make_replay_screen(App& app, GameRecord record);
std::unique_ptr<Screen> make_settings_screen(App& app);

}  // namespace amazons::client::ui
