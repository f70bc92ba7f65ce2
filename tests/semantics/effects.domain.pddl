; Feature-dense task for tests/semantics_agree.rs: an atom deleted and
; added by one step (the add wins), conditional effects that conflict,
; a swap of two fluents by simultaneous assigns, scale-up and scale-down,
; stratified derived predicates (one under negation of another), and
; conditions on derived predicates and numbers inside `when`.
(define (domain effects)
  (:requirements :adl :derived-predicates :numeric-fluents)
  (:types cell)
  (:predicates (fire ?c - cell) (adj ?a ?b - cell) (danger ?c - cell) (safe ?c - cell)
               (here ?c - cell) (token) (done ?c - cell))
  (:functions (x) (y) (heat ?c - cell))
  (:derived (danger ?c - cell) (exists (?d - cell) (and (adj ?c ?d) (fire ?d))))
  (:derived (safe ?c - cell) (and (not (danger ?c)) (not (fire ?c))))
  (:action step
    :parameters (?a ?b - cell)
    :precondition (and (here ?a) (adj ?a ?b) (not (fire ?b)))
    :effect (and (not (here ?a)) (here ?b) (not (token)) (token)
                 (when (danger ?b) (and (done ?b) (increase (heat ?b) 1)))
                 (when (safe ?b) (not (done ?b)))
                 (when (> (x) (y)) (and (assign (x) (y)) (assign (y) (x))))))
  (:action douse
    :parameters (?c - cell)
    :precondition (and (fire ?c) (exists (?d - cell) (and (here ?d) (adj ?d ?c))))
    :effect (and (not (fire ?c)) (scale-up (x) 2) (scale-down (y) 2)
                 (forall (?d - cell) (when (and (adj ?c ?d) (not (fire ?d)) (< (heat ?d) 2))
                                           (fire ?d)))))
  (:action rest
    :parameters ()
    :precondition (forall (?c - cell) (imply (here ?c) (safe ?c)))
    :effect (and (when (token) (not (token))) (when (not (token)) (token))
                 (increase (x) 3))))
