(define (domain unbound-derived)
  (:requirements :strips :derived-predicates)
  (:predicates (above ?x ?y) (on ?x ?y))
  (:derived (above ?x ?y) (on ?x ?z)))
