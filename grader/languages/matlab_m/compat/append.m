function s = append(varargin)
% MATLAB's append (R2019a) for char rows: concatenation that keeps trailing spaces.
  s = [varargin{:}];
end
