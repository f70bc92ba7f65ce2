(define (problem missing-goal)
  (:domain shared)
  (:objects t1 - truck)
  (:init (at t1 depot)))
