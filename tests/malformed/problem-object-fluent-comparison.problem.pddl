; Comparing an object fluent with an object (PDDL 3.1): not supported,
; said so at the comparison (not "used as a number" and "undeclared
; function `c`").
(define (problem object-fluent-comparison)
  (:domain object-fluent-comparison)
  (:objects a b c - loc t - truck)
  (:init (road a b) (road b c) (at t a) (= (pos t) a))
  (:goal (= (pos t) c)))
