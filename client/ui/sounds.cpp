#include "client/ui/sounds.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include <SFML/Audio/Sound.hpp>
#include <SFML/Audio/SoundBuffer.hpp>

namespace amazons::client::ui {

namespace {

constexpr unsigned kRate = 44100;
constexpr double kTau = 6.283185307179586;

// A struck wooden block: a few decaying partials.
std::vector<sf::Int16> knock(double freq, double seconds, double volume) {
  const auto n = static_cast<std::size_t>(seconds * kRate);
  std::vector<sf::Int16> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / kRate;
    const double env = std::exp(-t * 38.0);
    const double v = std::sin(kTau * freq * t) + 0.45 * std::sin(kTau * freq * 2.76 * t) +
                     0.2 * std::sin(kTau * freq * 5.4 * t);
    out[i] = static_cast<sf::Int16>(std::lround(v * env * volume * 12000.0));
  }
  return out;
}

// ALSA devices, or a PulseAudio or PipeWire server to talk to. Without any of them OpenAL
// fails noisily on every call, so it is better not started.
bool audio_device_present() {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists("/dev/snd", ec)) return true;
  if (std::getenv("PULSE_SERVER") != nullptr) return true;
  if (const char* run = std::getenv("XDG_RUNTIME_DIR"))
    return fs::exists(fs::path(run) / "pulse" / "native", ec) ||
           fs::exists(fs::path(run) / "pipewire-0", ec);
  return false;
}

}  // namespace

struct Sounds::Impl {
  sf::SoundBuffer move_buffer, end_buffer;
  sf::Sound move_sound, end_sound;
};

Sounds::Sounds() = default;
Sounds::~Sounds() = default;

void Sounds::ensure() {
  if (impl_ || !available_) return;
  if (!audio_device_present()) {
    available_ = false;
    return;
  }
  impl_ = std::make_unique<Impl>();
  std::vector<sf::Int16> samples = knock(660, 0.12, 0.9);
  const std::vector<sf::Int16> arrow = knock(990, 0.10, 0.5);
  samples.resize(samples.size() + kRate / 14, 0);  // the arrow follows a moment later
  samples.insert(samples.end(), arrow.begin(), arrow.end());
  impl_->move_buffer.loadFromSamples(samples.data(), samples.size(), 1, kRate);
  std::vector<sf::Int16> chord = knock(440, 0.5, 0.6);
  const std::vector<sf::Int16> fifth = knock(660, 0.5, 0.4);
  for (std::size_t i = 0; i < chord.size(); ++i)
    chord[i] = static_cast<sf::Int16>(chord[i] + fifth[i]);
  impl_->end_buffer.loadFromSamples(chord.data(), chord.size(), 1, kRate);
  impl_->move_sound.setBuffer(impl_->move_buffer);
  impl_->end_sound.setBuffer(impl_->end_buffer);
}

void Sounds::move() {
  if (!enabled_) return;
  ensure();
  if (impl_) impl_->move_sound.play();
}

void Sounds::end() {
  if (!enabled_) return;
  ensure();
  if (impl_) impl_->end_sound.play();
}

}  // namespace amazons::client::ui
