"""Português do Brasil: cada texto que o aparelho mostra (até 20 caracteres
por linha)."""

S = {
    # comuns
    "new_game": "Novo jogo", "n_players": "%d jogadores", "how_many": "Quantos jogadores?",
    "who_first": "Quem dá as cartas?", "who_starts": "Quem começa?", "menu": "Menu", "back_game": "Voltar ao jogo",
    "undo_last": "Desfazer", "export": "Exportar log", "erase_q": "Apagar este jogo?",
    "keep": "Não, manter", "erase": "Sim, apagar", "undone": "Desfeito",
    "nothing_undo": "Nada a desfazer", "refused": "Recusado", "exported": "Log exportado",
    "exported_text": "O log da sessão foi para o console serial USB.",
    "full": "Memória cheia",
    "full_text": "Este jogo não cabe mais na memória: continue, mas exporte o log antes de "
                 "desligar.",
    "resumed": "Retomado", "resumed_skip": "Retomado, %d pulados", "no_game": "Nenhum jogo salvo",
    "unreadable": "Memória ilegível",
    "unreadable_text": "O cabeçalho não é uma sessão: comece um novo jogo.",
    "wins": "%s vence!", "no_winner": "Sem vencedor", "done": "Pronto",
    # Sete Selos
    "ritual_series": "Ritual %d  Série %d", "winner_q": "Ritual %d: vencedor?",
    "won_with": "%s venceu com", "move_to": "%s: mover cultista", "removes": "%s remove %d",
    "elder": "Ancião %d", "immediate": "Vitória imediata", "insanity": "Insanidade %s",
    "power": "Poder: ", "tie_elder": "Empate: Ancião %d", "tie_all": "Empate em tudo",
    "pw": "pd",
    # Fantasmagória
    "round_lead": "Rodada %d  Líder %s", "trump_q": "Sacrifício: trunfo?",
    "leader_q": "Quem lidera?", "trick_win": "Vencedor da vaza", "possession": "Possessão",
    "end_round": "Fim da rodada", "trick_q": "Quem levou a vaza?", "poss_q": "Quem foi possuído?",
    "poss_num": "%s jogou o número", "ghosts_q": "%s: fantasmas?", "cursed_q": "%s: amaldiçoadas",
    "candelabro": "Candelabro", "gato": "Gato da sorte", "belleanna": "BelleAnna",
    "filipi": "Filipi (venceu)", "possessed": "Possuídos %s", "totals": "Sustos %s",
    "round_n": "Rodada %d: %s", "trump_lbl": "Trunfo", "spirit": "O espírito escolheu",
    "three_out_text": "Com 3 jogadores: tire o naipe vela e os fantasmas 9, 10 e 11.",
    # Ritos Ancestrais
    "turn": "Vez de %s", "final": "Final: %s", "points": "Pontos",
    "end_turn": "Fim do turno", "checklist": "compra2 ação mão7", "points_q": "%s pontua",
    "bonus": "Bônus", "hands": "Cartas na mão", "bonus_who": "Bônus: quem?",
    "bonus_pts": "%s: pontos de bônus", "hand_of": "%s: cartas na mão",
    "shared": "Vitória dividida", "scores": "Pontos %s", "hands_line": "Mãos %s",
}
