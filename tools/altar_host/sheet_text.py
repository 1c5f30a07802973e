"""The game sheet's words in both languages.

What the device shows is said in the device's words (altar_fw.ui.strings);
the labels here are for what only the sheet shows: table headings, chart
axes, how a game ended spelled out.
"""

from altar_fw.ui import strings

# Host-only labels; each key in both languages.
HOST = {
    "pt": {
        "sheet": "Folha da partida",
        "players": "Jogadores",
        "options": "Opções fora do padrão",
        "first_dealer": "Primeiro a dar as cartas",
        "first_player": "Jogador inicial",
        "undone": ("1 ação desfeita no aparelho (não conta aqui)",
                   "%d ações desfeitas no aparelho (não contam aqui)"),
        "unfinished": "Partida interrompida: o log termina antes do fim.",
        "awaiting_redirect": "À espera de %s mover seu cultista.",
        "awaiting": "À espera: %s.",
        "how_ended": "Como terminou",
        "where_stopped": "Onde parou",
        "seat": "Lugar",
        "banished": "Cultista Banido",
        # Sete Selos
        "rituals": "Rituais",
        "elders": "Os Anciões",
        "series": "Série",
        "ritual": "Ritual",
        "leader": "Líder",
        "winner": "Vencedor",
        "card": "Carta",
        "cultist": "Cultista",
        "revealed": "revelado",
        "redirected": "%s revelado → %s (escolha)",
        "moved_on": "%s revelado → %s (automático)",
        "no_cultist": "— (a partida acabou antes)",
        "board_series": "Os Anciões ao fim da série %d",
        "board_end": "Os Anciões ao fim da partida",
        "board_now": "Os Anciões onde o log termina",
        "insanity_chart": "Insanidade ritual a ritual",
        "by_insanity": "%s chegou a %d de insanidade (vitória com %d).",
        "by_cultists": "%s tem %d cultistas nos seus %d Anciões mais cheios (vitória com %d).",
        "by_cultists_one": "%s tem %d cultistas num só Ancião (vitória com %d).",
        "by_cultists_all": "%s tem %d cultistas nos Anciões (vitória com %d).",
        "removals": "Remoções (um cultista por ponto de insanidade)",
        "removed": "Removeu de",
        "left": "Ficaram",
        "power_rule": "Poder em cada Ancião: 1 cultista próprio vale %d, 2 valem %d, 3 valem %d.",
        "no_removal": "nada a remover",
        "by_power": "%s tem o maior poder: %d.",
        "no_tie": "Sem empate no poder.",
        "tied_power": "Empate em %d de poder entre %s.",
        # Fantasmagória
        "trick": "Vaza",
        "planchette": "Planchette",
        "ghosts": "Fantasmas",
        "cursed": "Amaldiçoadas",
        "filipi_bode": "Filipi Bode",
        "filipi_void": "Filipi Bode com %d fantasmas: a pilha não vale nada",
        "filipi_double": "Filipi Bode: cada fantasma vale 2",
        "round_scares": "Sustos na rodada",
        "track": "Trilha",
        "track_chart": "A trilha de sustos rodada a rodada (menos é melhor)",
        "start": "início",
        "spirit_tie": "Empate em %d sustos entre %s: o espírito escolheu %s.",
        "lowest": "%s terminou com menos sustos: %d.",
        "no_piles": "rodada não encerrada",
        # Ritos Ancestrais
        "turn_n": "Turno",
        "turns": "Turnos",
        "points_gained": "Pontos no turno",
        "scores_chart": "Os pontos turno a turno",
        "goal": "21 pontos",
        "reached": "%s chegou a 21 no turno %d; a rodada final foi até o turno %d.",
        "reached_last": "%s chegou a 21 no turno %d, o último da rodada: a partida acabou ali.",
        "not_reached": "Ninguém chegou a 21.",
        "tie_hands": "Empate em %d pontos entre %s: desempate por cartas na mão, %s com %d.",
        "shared_by": "Empate em pontos e em cartas na mão: %s dividem a vitória.",
        "top_score": "%s fez mais pontos: %d.",
        "reached_mark": "21 atingido",
        # the bonus cards a `bonus` may name (altar.ritos_ancestrais.BONUS_CARDS)
        "bonus_idolo-antigo": "Ídolo Antigo",
        "bonus_azathoth": "Azathoth",
        "bonus_cidade-de-innsmouth": "Cidade de Innsmouth",
    },
    "en": {
        "sheet": "Game sheet",
        "players": "Players",
        "options": "Options not at their defaults",
        "first_dealer": "First dealer",
        "first_player": "Initial player",
        "undone": ("1 action undone on the device (not counted here)",
                   "%d actions undone on the device (not counted here)"),
        "unfinished": "Unfinished game: the log stops before the end.",
        "awaiting_redirect": "Waiting for %s to move their cultist.",
        "awaiting": "Waiting: %s.",
        "how_ended": "How it ended",
        "where_stopped": "Where it stopped",
        "seat": "Seat",
        "banished": "Banished Cultist",
        "rituals": "Rituals",
        "elders": "The Elders",
        "series": "Series",
        "ritual": "Ritual",
        "leader": "Leader",
        "winner": "Winner",
        "card": "Card",
        "cultist": "Cultist",
        "revealed": "revealed",
        "redirected": "%s revealed → %s (chosen)",
        "moved_on": "%s revealed → %s (automatic)",
        "no_cultist": "— (the game ended first)",
        "board_series": "The Elders at the end of series %d",
        "board_end": "The Elders at the end of the game",
        "board_now": "The Elders where the log stops",
        "insanity_chart": "Insanity ritual by ritual",
        "by_insanity": "%s reached %d insanity (a win at %d).",
        "by_cultists": "%s has %d cultists on their %d fullest Elders (a win at %d).",
        "by_cultists_one": "%s has %d cultists on one Elder (a win at %d).",
        "by_cultists_all": "%s has %d cultists on the Elders (a win at %d).",
        "removals": "Removals (one cultist per point of insanity)",
        "removed": "Removed from",
        "left": "Left",
        "power_rule": "Power on each Elder: 1 own cultist is worth %d, 2 are worth %d, "
                      "3 are worth %d.",
        "no_removal": "nothing to remove",
        "by_power": "%s has the most power: %d.",
        "no_tie": "No tie on power.",
        "tied_power": "Tied on %d power between %s.",
        "trick": "Trick",
        "planchette": "Planchette",
        "ghosts": "Ghosts",
        "cursed": "Cursed cards",
        "filipi_bode": "Filipi Bode",
        "filipi_void": "Filipi Bode with %d ghosts: the pile scores nothing",
        "filipi_double": "Filipi Bode: each ghost counts 2",
        "round_scares": "Scares this round",
        "track": "Track",
        "track_chart": "The scare track round by round (lower is better)",
        "start": "start",
        "spirit_tie": "Tied on %d scares between %s: the spirit chose %s.",
        "lowest": "%s ended with the fewest scares: %d.",
        "no_piles": "round not ended",
        "turn_n": "Turn",
        "turns": "Turns",
        "points_gained": "Points this turn",
        "scores_chart": "Scores turn by turn",
        "goal": "21 points",
        "reached": "%s reached 21 on turn %d; the final round went on to turn %d.",
        "reached_last": "%s reached 21 on turn %d, the round's last: the game ended there.",
        "not_reached": "Nobody reached 21.",
        "tie_hands": "Tied on %d points between %s: the tie-break is cards in hand, %s with %d.",
        "shared_by": "Tied on points and on cards in hand: %s share the win.",
        "top_score": "%s scored the most: %d.",
        "reached_mark": "21 reached",
        # the cards' printed names, then what they say
        "bonus_idolo-antigo": "Ídolo Antigo (Ancient Idol)",
        "bonus_azathoth": "Azathoth",
        "bonus_cidade-de-innsmouth": "Cidade de Innsmouth (City of Innsmouth)",
    },
}

class Words:
    """A language's words: `w[key]` is the device's text for a key it has,
    else the sheet's own; `w.word(key)` a device label without its slot."""

    def __init__(self, lang):
        self.device = strings(lang)
        self.host = HOST[lang]
        self.lang = lang

    def __getitem__(self, key):
        if key in self.host:
            return self.host[key]
        return self.device[key]

    def word(self, key):
        """The device's label alone: its texts carry the slot of the value
        they show ("Insanidade %s", "Poder: "), which a table heading has
        apart."""
        return self.device[key].replace("%s", "").strip(" :?")
