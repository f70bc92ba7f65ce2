(define (domain undeclared-type)
  (:requirements :typing)
  (:types block)
  (:predicates (on ?x - block ?y - blok)
               (clear ?x - block))
  (:action pick
    :parameters (?x - blck)
    :precondition (clear ?x)
    :effect (not (clear ?x))))
