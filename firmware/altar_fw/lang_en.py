"""English: every string the device shows (at most 20 characters a line)."""

S = {
    # shared
    "new_game": "New game", "n_players": "%d players", "how_many": "How many players?",
    "who_first": "Who deals first?", "who_starts": "Who plays first?", "menu": "Menu", "back_game": "Back to game",
    "undo_last": "Undo last", "export": "Export log", "erase_q": "Erase this game?",
    "keep": "No, keep it", "erase": "Yes, erase it", "undone": "Undone",
    "nothing_undo": "Nothing to undo", "refused": "Refused", "exported": "Log exported",
    "exported_text": "The session log went to the USB serial console.",
    "full": "Journal full",
    "full_text": "This game no longer fits the flash: play on, but export the log before "
                 "unplugging.",
    "resumed": "Resumed", "resumed_skip": "Resumed, %d skipped", "no_game": "No game to resume",
    "unreadable": "Journal unreadable",
    "unreadable_text": "Its header is not a session: start a new game.",
    "wins": "%s wins!", "no_winner": "No winner", "done": "Done",
    # Sete Selos
    "ritual_series": "Ritual %d  Series %d", "winner_q": "Ritual %d: winner?",
    "won_with": "%s won with", "move_to": "%s: move cultist to", "removes": "%s removes %d",
    "elder": "Elder %d", "immediate": "Immediate victory", "insanity": "Insanity %s",
    "power": "Power: ", "tie_elder": "Tie: Elder %d decides", "tie_all": "Tie on every Elder",
    "pw": "pw",
    # Fantasmagória
    "round_lead": "Round %d  Lead %s", "trump_q": "Sacrifice: trump?", "leader_q": "Who leads?",
    "trick_win": "Trick winner", "possession": "Possession", "end_round": "End round",
    "trick_q": "Trick won by?", "poss_q": "Who is possessed?", "poss_num": "%s played number",
    "ghosts_q": "%s: ghosts?", "cursed_q": "%s: cursed cards", "candelabro": "Candelabro",
    "gato": "Gato da sorte", "belleanna": "BelleAnna", "filipi": "Filipi (won)",
    "possessed": "Possessed %s", "totals": "Scares %s", "round_n": "Round %d: %s",
    "trump_lbl": "Trump", "spirit": "The spirit chose",
    "three_out_text": "With 3 players: take out vela and ghosts 9, 10, 11.",
    # Ritos Ancestrais
    "turn": "Turn: %s", "final": "Final: %s", "points": "Points",
    "end_turn": "End turn", "checklist": "draw2 action hand7", "points_q": "%s scores",
    "bonus": "Bonus", "hands": "Cards in hand", "bonus_who": "Bonus: who?",
    "bonus_pts": "%s: bonus points", "hand_of": "%s: cards in hand", "shared": "Shared win",
    "scores": "Scores %s", "hands_line": "Hands %s",
}
