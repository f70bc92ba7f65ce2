;; Towers of Hanoi.
;;
;; Discs and pegs are both places a disc can rest on. (on ?d ?p) disc ?d
;; lies directly on place ?p, (clear ?p) nothing lies on ?p. The rule
;; "never a larger disc on a smaller one" is the static relation
;; (smaller ?d ?p): disc ?d may rest on ?p, i.e. ?p is a larger disc or a
;; peg (the problem lists every disc as smaller than every peg).
;; One action moves the top disc of one place onto another; with n discs
;; on three pegs the optimum is 2^n - 1 moves.
;; Problems: `plan generate hanoi --discs N`.
(define (domain hanoi)
  (:requirements :strips :typing)
  (:types disc peg - place
          place - object)
  (:predicates
    (on ?d - disc ?p - place)
    (clear ?p - place)
    (smaller ?d - disc ?p - place))

  (:action move
    :parameters (?d - disc ?from ?to - place)
    :precondition (and (on ?d ?from) (clear ?d) (clear ?to) (smaller ?d ?to))
    :effect (and (on ?d ?to) (clear ?from)
                 (not (on ?d ?from)) (not (clear ?to)))))
