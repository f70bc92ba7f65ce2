(define (problem wide-1) (:domain wide)
  (:objects o1 o2 o3 o4 o5 o6)
  (:init (p o1) (p o2) (p o3) (p o4) (p o5) (p o6))
  (:goal (q o1 o2 o3 o4 o5)))
