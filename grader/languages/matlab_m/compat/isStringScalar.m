function tf = isStringScalar(x)
% MATLAB's isStringScalar (R2017b): Octave has no string class, so nothing is a string scalar.
  tf = false;
end
