(define (domain wrong-type-constant)
  (:requirements :typing)
  (:types block surface)
  (:constants table - surface)
  (:predicates (on ?x - block ?y - block) (on-surface ?x - block ?s - surface))
  (:action put
    :parameters (?x - block)
    :effect (and (on ?x table) (on-surface ?x table))))
