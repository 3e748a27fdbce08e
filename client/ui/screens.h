// The client's screens. Each is made by one function; they navigate through App::show.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "client/game_choices.h"
#include "client/game_session.h"
#include "client/online_client.h"
#include "client/ui/app.h"

namespace amazons::client::ui {

using client::known_variants;
using client::time_choices;
using client::time_text;
using client::TimeChoice;
using client::variant_label;

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
// Play the computer: level, colour, rule variant.
std::unique_ptr<Screen> make_computer_setup_screen(App& app);

// Gives the computer's sides of setup.game their engines (client/computer_game.h) with the
// client's engine settings; returns a sentence when a level is unknown. Harmless for games
// without the computer.
std::optional<std::string> add_computer(SessionSetup& setup);
// Shows a new local game. The unfinished game, if any, is moved to the saved games first, since
// the new one is saved in its place; returns a sentence when that fails (nothing is started).
std::optional<std::string> start_new_game(App& app, SessionSetup setup);

// Online play (online_screens.cpp, online_game_screen.cpp).
// "Hosting on this computer. Friends connect to: ..." while this client hosts a server, else "".
std::string hosting_line(App& app);
// "TLS certificate SHA-256: AB:CD:..." of the hosted server, when it has one, else "".
std::string hosting_fingerprint_line(App& app);
// Play online: a server's host:port or one found on the LAN, a name and an optional password.
std::unique_ptr<Screen> make_connect_screen(App& app);
// Host a game on this computer: starts the server, shows its addresses, then its lobby.
std::unique_ptr<Screen> make_host_screen(App& app);
// A TLS certificate the connection did not trust: Unknown asks "Trust this server?" with its
// fingerprint (trusting pins it in the settings and connects again); Changed warns and refuses.
std::unique_ptr<Screen> make_certificate_screen(App& app, net::ConnectionOptions options,
                                                net::ClientError error);
// The lobby of the server `client` is logged in to (or logging in to).
std::unique_ptr<Screen> make_lobby_screen(App& app, std::shared_ptr<client::OnlineClient> client);
// The game client->game() shows, played or watched; back to the lobby when left.
std::unique_ptr<Screen> make_online_game_screen(App& app,
                                                std::shared_ptr<client::OnlineClient> client);
// One tournament: standings, the round's games (watch a playing one), join and withdraw.
std::unique_ptr<Screen> make_tournament_screen(App& app,
                                               std::shared_ptr<client::OnlineClient> client,
                                               std::int64_t id);
// Reports `player` to the moderators with a reason; back to the lobby.
std::unique_ptr<Screen> make_report_screen(App& app, std::shared_ptr<client::OnlineClient> client,
                                           std::string player);
// For moderators and admins: open reports, bans and mutes in force, mute/kick/ban, the audit log.
std::unique_ptr<Screen> make_moderation_screen(App& app,
                                               std::shared_ptr<client::OnlineClient> client);
// For the online screens: a screen's title with a line under it, and the client's notices
// shown as the app's.
void draw_title(sf::RenderTarget& t, const Style& s, float x, float y, const std::string& title,
                const std::string& subtitle, sf::Color subtitle_color = colors::kMuted);
void show_notices(App& app, client::OnlineClient& client);
// A left-aligned button appended to `rows`: one line of a screen's list.
Button& add_row(std::vector<std::unique_ptr<Button>>& rows, const std::string& id,
                const std::string& label, ButtonStyle look, std::function<void()> click);
// A player's finished games on the server; each opens in the replay screen.
std::unique_ptr<Screen> make_archive_screen(App& app, std::shared_ptr<client::OnlineClient> client);
// Steps through a finished game; Back shows what `back` makes.
std::unique_ptr<Screen> make_replay_screen(App& app, GameRecord record,
                                           std::function<std::unique_ptr<Screen>()> back);

}  // namespace amazons::client::ui
